// The sidebar (views/sidebar.rs): search, import (file picker and drag-and-drop, with upload
// progress), rename, delete, and the phone-width toggle. Export links are plain downloads.
//
// Safety, as in app.js: data goes in with textContent only; the elements come from the
// server-rendered templates #search-hit-template and #search-mark-template.
"use strict";

(() => {
  const CSRF = { "X-Squash-Csrf": "1" };
  const $ = (sel, root = document) => root.querySelector(sel);
  const sidebar = $("#sidebar");
  if (!sidebar) return;
  const current = sidebar.dataset.current || null;

  async function call(method, url, body) {
    const headers = Object.assign({ Accept: "application/json" }, CSRF);
    const opts = { method, credentials: "same-origin", headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const res = await fetch(url, opts);
    if (res.status === 204) return null;
    let data = null;
    try {
      data = await res.json();
    } catch (_) {
      data = null;
    }
    if (!res.ok) {
      const message = data && data.error ? data.error.message : "The server answered " + res.status + ".";
      throw new Error(message);
    }
    return data;
  }

  // ---- phone width: the sidebar opens over the page --------------------------------------
  const toggle = $("#sidebar-toggle");
  function setOpen(open) {
    document.body.classList.toggle("sidebar-open", open);
    toggle.setAttribute("aria-expanded", String(open));
    if (open) $("#search-input").focus();
  }
  toggle.addEventListener("click", () => setOpen(!document.body.classList.contains("sidebar-open")));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && document.body.classList.contains("sidebar-open")) {
      setOpen(false);
      toggle.focus();
    }
  });

  // ---- search ----------------------------------------------------------------------------
  const form = $("#search-form");
  const input = $("#search-input");
  const scope = $("#search-scope");
  const status = $("#search-status");
  const results = $("#search-results");
  const selectBtn = $("#search-select");
  const hitTemplate = $("#search-hit-template");
  const markTemplate = $("#search-mark-template");

  function searchUrl(q, limit) {
    const params = new URLSearchParams({ q, limit: String(limit) });
    if (current && scope && scope.checked) params.set("conversation", current);
    return "/api/search?" + params.toString();
  }

  function hitElement(hit) {
    const li = hitTemplate.content.firstElementChild.cloneNode(true);
    const link = $(".search-hit-link", li);
    const id = encodeURIComponent(hit.message_id);
    link.href = "/c/" + encodeURIComponent(hit.conversation_id) + "?at=" + id + "#m-" + id;
    link.dataset.message = hit.message_id;
    $(".search-hit-conversation", li).textContent = hit.conversation_name;
    $(".search-hit-where", li).textContent = hit.role + " · @" + hit.position;
    const snippet = $(".search-hit-snippet", li);
    for (const part of hit.snippet) {
      if (part.hit) {
        const mark = markTemplate.content.firstElementChild.cloneNode(true);
        mark.textContent = part.text;
        snippet.append(mark);
      } else {
        snippet.append(document.createTextNode(part.text));
      }
    }
    return li;
  }

  let lastQuery = "";
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const q = input.value.trim();
    results.replaceChildren();
    if (selectBtn) selectBtn.hidden = true;
    if (!q) {
      status.textContent = "Type words to look for; \"quotes\" for a phrase.";
      return;
    }
    status.textContent = "Searching…";
    try {
      const data = await call("GET", searchUrl(q, 50));
      lastQuery = q;
      for (const hit of data.hits) results.append(hitElement(hit));
      status.textContent =
        data.total === 0
          ? "No messages match."
          : data.more
            ? "Best " + data.hits.length + " of the newest " + data.total + " of many matching messages"
            : data.total > data.hits.length
            ? "Best " + data.hits.length + " of " + data.total + " matching messages"
            : data.total + (data.total === 1 ? " matching message" : " matching messages");
      if (selectBtn) selectBtn.hidden = !(scope && scope.checked && data.total > 0);
    } catch (e) {
      status.textContent = e.message;
    }
  });
  if (scope) scope.addEventListener("change", () => {
    if (input.value.trim()) form.requestSubmit();
  });

  // "Select hits": the conversation page's selection listens for this event (its owner wires
  // it), so the search never reaches into the selection's state.
  if (selectBtn) {
    selectBtn.addEventListener("click", async () => {
      const page = document.getElementById("conversation");
      if (!page || !lastQuery) return;
      try {
        const data = await call("GET", searchUrl(lastQuery, 200));
        const ids = data.hits.map((h) => h.message_id);
        const positions = data.hits.map((h) => h.position);
        page.dispatchEvent(new CustomEvent("squash:select", { detail: { ids, positions } }));
        status.textContent =
          "Selected " + ids.length + (data.total > ids.length ? " of " + data.total : "") + " matching messages.";
      } catch (e) {
        status.textContent = e.message;
      }
    });
  }

  // ---- rename, delete --------------------------------------------------------------------
  sidebar.addEventListener("click", async (ev) => {
    const item = ev.target.closest(".sidebar-conversation");
    if (!item) return;
    const renameForm = $(".sidebar-rename-form", item);
    if (ev.target.closest(".sidebar-rename")) {
      renameForm.hidden = false;
      $("input", renameForm).focus();
    } else if (ev.target.closest(".sidebar-rename-cancel")) {
      renameForm.hidden = true;
    } else if (ev.target.closest(".sidebar-delete")) {
      const name = $(".sidebar-link", item).textContent;
      if (!window.confirm("Delete “" + name + "” with all its history? This cannot be undone.")) return;
      try {
        await call("DELETE", "/api/conversations/" + encodeURIComponent(item.dataset.id));
        if (item.dataset.id === current) {
          window.location.assign("/");
        } else {
          item.remove();
        }
      } catch (e) {
        window.alert(e.message);
      }
    }
  });
  sidebar.addEventListener("submit", async (ev) => {
    const renameForm = ev.target.closest(".sidebar-rename-form");
    if (!renameForm) return;
    ev.preventDefault();
    const item = renameForm.closest(".sidebar-conversation");
    const name = $("input", renameForm).value.trim();
    if (!name) return;
    try {
      const conv = await call("PATCH", "/api/conversations/" + encodeURIComponent(item.dataset.id), { name });
      $(".sidebar-link", item).textContent = conv.display_name;
      renameForm.hidden = true;
    } catch (e) {
      window.alert(e.message);
    }
  });

  // ---- import: picker or drop, one file after another, with upload progress ---------------
  const picker = $("#import-file");
  const drop = $("#import-drop");
  const progress = $("#import-progress");
  const bar = $("#import-bar");
  const importStatus = $("#import-status");

  function upload(file) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/api/import?name=" + encodeURIComponent(file.name));
      xhr.setRequestHeader("X-Squash-Csrf", "1");
      xhr.setRequestHeader("Accept", "application/json");
      xhr.upload.addEventListener("progress", (ev) => {
        if (ev.lengthComputable) bar.value = Math.round((100 * ev.loaded) / ev.total);
      });
      xhr.upload.addEventListener("load", () => {
        bar.removeAttribute("value");
        importStatus.textContent = "Importing " + file.name + "…";
      });
      xhr.addEventListener("load", () => {
        let data = null;
        try {
          data = JSON.parse(xhr.responseText);
        } catch (_) {
          data = null;
        }
        if (xhr.status >= 200 && xhr.status < 300 && data) resolve(data);
        else reject(new Error(data && data.error ? data.error.message : "The server answered " + xhr.status + "."));
      });
      xhr.addEventListener("error", () => reject(new Error("The upload of " + file.name + " failed.")));
      xhr.send(file);
    });
  }

  async function importFiles(files) {
    if (!files.length) return;
    progress.hidden = false;
    let first = null;
    let count = 0;
    for (const file of files) {
      bar.value = 0;
      importStatus.textContent = "Uploading " + file.name + "…";
      try {
        const data = await upload(file);
        const convs = (data.summary && data.summary.conversations) || [];
        count += convs.length;
        if (!first && convs.length) first = convs[0].conversation_id;
      } catch (e) {
        bar.value = 0;
        importStatus.textContent = e.message;
        return;
      }
    }
    bar.value = 100;
    importStatus.textContent = "Imported " + count + (count === 1 ? " conversation." : " conversations.");
    if (first) window.location.assign("/c/" + encodeURIComponent(first));
  }

  $("#import-btn").addEventListener("click", () => picker.click());
  picker.addEventListener("change", () => {
    importFiles(Array.from(picker.files));
    picker.value = "";
  });
  for (const target of [drop, sidebar]) {
    target.addEventListener("dragover", (ev) => {
      if (!ev.dataTransfer || !Array.from(ev.dataTransfer.types).includes("Files")) return;
      ev.preventDefault();
      drop.classList.add("over");
    });
    target.addEventListener("dragleave", (ev) => {
      if (!sidebar.contains(ev.relatedTarget)) drop.classList.remove("over");
    });
    target.addEventListener("drop", (ev) => {
      if (!ev.dataTransfer || !ev.dataTransfer.files.length) return;
      ev.preventDefault();
      ev.stopPropagation();
      drop.classList.remove("over");
      importFiles(Array.from(ev.dataTransfer.files));
    });
  }
})();
