// Squash web UI: selection, the Squash menu, streamed AI squash and chat, the preview,
// undo/redo, history, provenance, edit and delete. No framework and no build step.
//
// Safety: this script never turns data into markup. Text goes in with textContent; the only
// HTML it inserts is what the server rendered (and escaped) for a fragment or a page.
"use strict";

// Sent with every state-changing request: a cross-site page cannot send it without a CORS
// preflight, which the server never grants.
const CSRF = { "X-Squash-Csrf": "1" };

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

function apiError(data, status) {
  const e = (data && data.error) || {
    code: "http_" + status,
    message: "The server answered with status " + status + ".",
  };
  const err = new Error(e.message);
  err.code = e.code;
  err.cls = e.class;
  err.hint = e.hint;
  return err;
}

async function api(method, url, body) {
  const opts = {
    method,
    credentials: "same-origin",
    headers: Object.assign({ Accept: "application/json" }, CSRF),
  };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
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
  if (!res.ok) throw apiError(data, res.status);
  return data;
}

// A POST answered with server-sent events: `start` and `delta` go to the handlers, `error`
// rejects, the final event's data resolves.
async function stream(url, body, handlers, signal) {
  const res = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: Object.assign(
      { "Content-Type": "application/json", Accept: "text/event-stream" },
      CSRF
    ),
    body: JSON.stringify(body || {}),
    signal,
  });
  if (!res.ok) {
    let data = null;
    try {
      data = await res.json();
    } catch (_) {
      data = null;
    }
    throw apiError(data, res.status);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let final = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer = (buffer + decoder.decode(value, { stream: true })).replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (!event) continue;
      if (event.name === "delta") {
        if (handlers.delta) handlers.delta(event.data.text || "");
      } else if (event.name === "start") {
        if (handlers.start) handlers.start(event.data);
      } else if (event.name === "step") {
        if (handlers.step) handlers.step(event.data);
      } else if (event.name === "error") {
        throw apiError(event.data, 200);
      } else {
        final = event;
      }
    }
  }
  if (!final) {
    throw new Error("The connection closed before the operation finished; nothing was changed.");
  }
  return final.data;
}

function parseEvent(raw) {
  let name = "message";
  const data = [];
  for (const line of raw.split("\n")) {
    if (line.startsWith(":")) continue; // keep-alive comment
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return null;
  try {
    return { name, data: JSON.parse(data.join("\n")) };
  } catch (_) {
    return null;
  }
}

async function fetchHtml(url) {
  const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!res.ok) {
    throw new Error("Could not load " + url + " (status " + res.status + ").");
  }
  return res.text();
}

// ---- messages in the page -------------------------------------------------------------------

function flash(message, kind, hint) {
  const el = $("#flash");
  if (!el) return;
  el.replaceChildren();
  const text = document.createElement("div");
  text.className = "flash-message";
  text.textContent = message;
  el.append(text);
  if (hint) {
    const h = document.createElement("div");
    h.className = "flash-hint";
    h.textContent = hint;
    el.append(h);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "flash-close";
  close.setAttribute("aria-label", "Dismiss");
  close.textContent = "✕";
  close.addEventListener("click", () => {
    el.hidden = true;
  });
  el.append(close);
  el.className = "flash " + (kind || "error");
  el.hidden = false;
}

function showError(err) {
  if (err && err.name === "AbortError") return;
  flash((err && err.message) || String(err), "error", err && err.hint);
}

function clearFlash() {
  const el = $("#flash");
  if (el) el.hidden = true;
}

// ---- the conversation list ------------------------------------------------------------------

function initHome() {
  const form = $("#create-form");
  if (!form) return;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = form.elements.namedItem("name").value;
    const project = form.elements.namedItem("project").value;
    try {
      const c = await api("POST", "/api/conversations", { name, project });
      location.href = "/c/" + encodeURIComponent(c.id);
    } catch (e) {
      showError(e);
    }
  });
  document.addEventListener("click", async (ev) => {
    const item = ev.target.closest("li.conversation");
    if (!item) return;
    const id = item.dataset.id;
    if (ev.target.closest(".rename-btn")) {
      const f = $(".rename-form", item);
      f.hidden = false;
      f.elements.namedItem("name").focus();
    } else if (ev.target.closest(".cancel-btn")) {
      $(".rename-form", item).hidden = true;
    } else if (ev.target.closest(".delete-conversation-btn")) {
      const name = $(".conversation-link", item).textContent;
      if (!confirm("Delete “" + name + "” with all its threads and messages? This cannot be undone.")) return;
      try {
        await api("DELETE", "/api/conversations/" + encodeURIComponent(id));
        location.reload();
      } catch (e) {
        showError(e);
      }
    }
  });
  document.addEventListener("submit", async (ev) => {
    const f = ev.target.closest(".rename-form");
    if (!f) return;
    ev.preventDefault();
    const id = f.closest("li.conversation").dataset.id;
    try {
      await api("PATCH", "/api/conversations/" + encodeURIComponent(id), {
        name: f.elements.namedItem("name").value,
      });
      location.reload();
    } catch (e) {
      showError(e);
    }
  });
}

// ---- the conversation -----------------------------------------------------------------------

function initConversation(root) {
  const cid = root.dataset.conversation;
  const base = "/api/conversations/" + encodeURIComponent(cid);
  // The selection outlives the pages it was made on: id → 1-based position (Infinity when it
  // came from elsewhere, e.g. search hits, and was not on screen).
  const selected = new Map();
  let lastPos = null;
  let running = null; // the AbortController of the running AI squash
  let chatting = false;

  const boxes = () => $$("#thread .select-box");
  const idOf = (el) => el.closest(".msg").dataset.id;
  const posOf = (el) => Number(el.closest(".msg").dataset.pos);
  const selectedIds = () =>
    Array.from(selected.entries())
      .sort((a, b) => a[1] - b[1])
      .map(([id]) => id);

  function updateSelection() {
    for (const box of boxes()) {
      box.checked = selected.has(idOf(box));
      box.closest(".msg").classList.toggle("selected", box.checked);
    }
    const n = selected.size;
    $("#selection-count").textContent = n + " selected";
    $("#clear-selection").disabled = n === 0;
    $("#delete-selected").disabled = n === 0;
    const squash = $("#squash-btn");
    squash.disabled = n < 2 || running !== null;
    squash.title = running
      ? "An AI squash is running"
      : n < 2
        ? "Select at least two messages"
        : "Squash the " + n + " selected messages into one";
  }

  // The ids at positions from..to of the current thread, from the page when they are on it,
  // else from the API (a range can reach past what is loaded).
  async function idsBetween(from, to) {
    const shown = new Map(boxes().map((b) => [posOf(b), idOf(b)]));
    const out = [];
    let missing = false;
    for (let p = from; p <= to; p++) {
      if (shown.has(p)) out.push([shown.get(p), p]);
      else missing = true;
    }
    if (!missing) return out;
    const all = [];
    for (let after = from - 1; after < to; ) {
      const limit = Math.min(2000, to - after);
      const page = await api("GET", base + "/thread?after=" + after + "&limit=" + limit);
      if (page.thread.id !== $("#thread").dataset.thread) throw new Error("The thread changed meanwhile; select again.");
      for (const m of page.messages) all.push([m.id, m.position]);
      if (!page.messages.length) break;
      after = page.messages[page.messages.length - 1].position;
    }
    return all;
  }

  async function selectRange(from, to, on) {
    try {
      for (const [id, pos] of await idsBetween(Math.min(from, to), Math.max(from, to))) {
        if (on) selected.set(id, pos);
        else selected.delete(id);
      }
    } catch (e) {
      showError(e);
    }
    updateSelection();
  }

  function onBoxClick(box, ev) {
    const pos = posOf(box);
    if (ev.shiftKey && lastPos !== null) {
      selectRange(lastPos, pos, box.checked);
    } else if (box.checked) {
      selected.set(idOf(box), pos);
    } else {
      selected.delete(idOf(box));
    }
    lastPos = pos;
    updateSelection();
  }

  // ---- pages: the thread is shown a page at a time; more loads as the reader scrolls ----

  const PAGE = 50;
  // Past this many messages on screen, the far end is dropped again (and reloads on the way
  // back), so the page stays light however far one scrolls.
  const MAX_SHOWN = 300;
  let loading = false;
  const pager = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (e.isIntersecting && !e.target.hidden) loadMore(e.target.id === "load-before" ? "before" : "after");
      }
    },
    { rootMargin: "800px 0px" }
  );

  function watchPager() {
    pager.disconnect();
    for (const sel of ["#load-before", "#load-after"]) {
      const b = $(sel);
      if (b) pager.observe(b);
    }
  }

  function updatePager() {
    const ol = $("#thread");
    const first = Number(ol.dataset.first);
    const last = Number(ol.dataset.last);
    const total = Number(ol.dataset.total);
    $("#load-before").hidden = !(total > 0 && first > 1);
    $("#load-before-count").textContent = fmtTokens(Math.max(0, first - 1));
    $("#load-after").hidden = !(total > 0 && last < total);
    $("#load-after-count").textContent = fmtTokens(Math.max(0, total - last));
  }

  // Keeps at most MAX_SHOWN messages, dropping from `end` ("top" or "bottom").
  function trim(end) {
    const ol = $("#thread");
    const items = $$("#thread > li.msg");
    const extra = items.length - MAX_SHOWN;
    if (extra <= 0) return;
    if (end === "bottom") {
      items.slice(-extra).forEach((li) => li.remove());
      ol.dataset.last = items[items.length - extra - 1].dataset.pos;
    } else {
      const keep = items[extra];
      const top = keep.getBoundingClientRect().top;
      items.slice(0, extra).forEach((li) => li.remove());
      ol.dataset.first = keep.dataset.pos;
      window.scrollBy(0, keep.getBoundingClientRect().top - top);
    }
  }

  async function loadMore(dir) {
    if (loading) return;
    loading = true;
    try {
      const ol = $("#thread");
      const q = dir === "before" ? "before=" + ol.dataset.first : "after=" + ol.dataset.last;
      const html = await fetchHtml("/ui/conversations/" + encodeURIComponent(cid) + "/messages?" + q + "&limit=" + PAGE);
      const fresh = $("#thread", new DOMParser().parseFromString(html, "text/html"));
      if (!fresh || fresh.dataset.thread !== ol.dataset.thread) {
        // Another operation made a new thread meanwhile: show that one instead.
        loading = false;
        return refresh();
      }
      const items = $$("li.msg", fresh).map((li) => document.importNode(li, true));
      if (dir === "before") {
        const anchor = ol.firstElementChild;
        const top = anchor ? anchor.getBoundingClientRect().top : 0;
        ol.prepend(...items);
        if (items.length) ol.dataset.first = fresh.dataset.first;
        if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - top);
        trim("bottom");
      } else {
        ol.append(...items);
        if (items.length) ol.dataset.last = fresh.dataset.last;
        trim("top");
      }
      ol.dataset.total = fresh.dataset.total;
      updatePager();
      updateSelection();
      // Observing afresh reports the controls' present state: one still in reach loads on.
      watchPager();
    } catch (e) {
      showError(e);
    } finally {
      loading = false;
    }
  }

  // The rest of a long tool output, which the page leaves on the server until asked: set as
  // text in the output block the button follows.
  async function loadOutput(button) {
    button.disabled = true;
    try {
      const m = await api("GET", "/api/messages/" + encodeURIComponent(button.dataset.message));
      const item = m.content[Number(button.dataset.item)];
      const data = item && item.result && item.result[Number(button.dataset.part)];
      if (!data || typeof data.text !== "string") throw new Error("That output is not stored as the page showed it.");
      button.previousElementSibling.textContent = data.text;
      button.remove();
    } catch (e) {
      button.disabled = false;
      showError(e);
    }
  }

  // The first message at least partly on screen: where a refresh should keep the reader.
  function firstVisiblePos() {
    for (const li of $$("#thread > li.msg")) {
      if (li.getBoundingClientRect().bottom > 0) return Number(li.dataset.pos);
    }
    return null;
  }

  // Re-renders the thread, the history and the toolbar from the server, leaving a running
  // AI squash, its preview and the chat box alone. A reader at the end stays at the end (where
  // new messages arrive); one further up stays about where they were.
  async function refresh() {
    const ol = $("#thread");
    const atEnd = Number(ol.dataset.last) >= Number(ol.dataset.total);
    const shown = $$("#thread > li.msg").length;
    const from = firstVisiblePos();
    const q = atEnd || from === null
      ? "limit=" + Math.min(Math.max(shown, PAGE), MAX_SHOWN)
      : "around=" + from + "&limit=" + Math.min(Math.max(shown, PAGE), MAX_SHOWN);
    const doc = new DOMParser().parseFromString(await fetchHtml(location.pathname + "?" + q), "text/html");
    for (const sel of ["#thread-view", "#history-panel > .history", "#undo-btn", "#redo-btn", "#context-meter"]) {
      const fresh = $(sel, doc);
      const old = $(sel);
      if (fresh && old) old.replaceWith(document.importNode(fresh, true));
    }
    const historyBtn = $("#history-btn", doc);
    if (historyBtn) $("#history-btn").textContent = historyBtn.textContent;
    const ids = new Map(boxes().map((b) => [idOf(b), posOf(b)]));
    for (const id of Array.from(selected.keys())) {
      if (ids.has(id)) selected.set(id, ids.get(id));
      else selected.delete(id);
    }
    lastPos = null;
    if (!atEnd && from !== null) {
      const li = $('#thread > li.msg[data-pos="' + from + '"]');
      if (li) li.scrollIntoView({ block: "start" });
    }
    watchPager();
    updateSelection();
  }

  // Selecting from elsewhere on the page (search hits): `detail.ids`, optionally with
  // `detail.positions` in the same order.
  root.addEventListener("squash:select", (ev) => {
    const { ids = [], positions = [] } = ev.detail || {};
    ids.forEach((id, i) => selected.set(id, positions[i] === undefined ? Infinity : Number(positions[i])));
    updateSelection();
  });

  function selectRangeDialog(form) {
    const from = Number(form.elements.namedItem("from").value);
    const to = Number(form.elements.namedItem("to").value);
    const total = Number($("#thread").dataset.total);
    if (!(from >= 1 && to >= 1 && from <= total && to <= total)) {
      flash("Positions go from @1 to @" + total + ".", "error");
      return;
    }
    selectRange(from, to, true);
  }

  function toggleMenu(open) {
    const menu = $("#squash-menu");
    const show = open === undefined ? menu.hidden : open;
    menu.hidden = !show;
    $("#squash-btn").setAttribute("aria-expanded", String(show));
  }

  function outcomeNote(out) {
    const partners = (out.added_partners || []).length;
    return partners
      ? "Also included " + partners + " tool message(s), so that every tool call stays with its result."
      : undefined;
  }

  async function act(work, success) {
    clearFlash();
    try {
      const out = await work();
      await refresh();
      if (success) flash(typeof success === "function" ? success(out) : success, "info", out && outcomeNote(out));
      return out;
    } catch (e) {
      showError(e);
      return null;
    }
  }

  // ---- squash ----

  async function manualSquash() {
    toggleMenu(false);
    const ids = selectedIds();
    const out = await act(
      () => api("POST", base + "/squash/manual", { messages: ids }),
      (o) => "Squashed " + o.sources.length + " messages into one by concatenation. Undo brings them back."
    );
    if (out) {
      selected.clear();
      updateSelection();
    }
  }

  function showProgress(title) {
    $("#progress-title").textContent = title;
    $("#progress-model").textContent = "";
    $("#progress-text").textContent = "";
    $("#progress").hidden = false;
  }

  async function runAi(url, body, title) {
    clearFlash();
    running = new AbortController();
    updateSelection();
    showProgress(title);
    hidePreview();
    try {
      const data = await stream(
        url,
        body,
        {
          start: (d) => {
            $("#progress-model").textContent = "with " + d.model + " (" + d.provider + ")";
          },
          delta: (text) => {
            const out = $("#progress-text");
            out.textContent += text;
            out.scrollTop = out.scrollHeight;
          },
        },
        running.signal
      );
      await showPreview(data.preview_id);
    } catch (e) {
      if (e.name === "AbortError") flash("AI squash cancelled; nothing was changed.", "info");
      else showError(e);
    } finally {
      running = null;
      $("#progress").hidden = true;
      updateSelection();
    }
  }

  function aiSquash(instructions, style) {
    toggleMenu(false);
    const body = { messages: selectedIds() };
    if (instructions && instructions.trim()) body.instructions = instructions;
    if (style) body.style = style;
    const title = style === "extract" ? "Extracting the facts…" : "AI squash running…";
    runAi(base + "/squash/ai", body, title);
  }

  // "+ add" next to a fact of the preview: the fact goes into the text, in the editor.
  function addFact(button, card) {
    const edit = $("#preview-edit", card);
    if (edit.hidden) previewAction("edit", card);
    const fact = button.dataset.factText;
    if (!edit.value.includes(fact)) edit.value = edit.value.replace(/\s*$/, "") + "\n- " + fact;
    button.disabled = true;
    edit.focus();
  }

  async function showPreview(previewId) {
    const html = await fetchHtml(
      "/ui/conversations/" + encodeURIComponent(cid) + "/previews/" + encodeURIComponent(previewId)
    );
    const box = $("#preview");
    box.innerHTML = html; // server-rendered, escaped
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  function hidePreview() {
    const box = $("#preview");
    box.hidden = true;
    box.replaceChildren();
  }

  async function previewAction(action, card) {
    const pid = card.dataset.preview;
    const url = base + "/previews/" + encodeURIComponent(pid);
    if (action === "edit") {
      $("#preview-text", card).hidden = true;
      const edit = $("#preview-edit", card);
      edit.hidden = false;
      edit.focus();
      $("[data-preview-action=apply]", card).hidden = true;
      $("[data-preview-action=edit]", card).hidden = true;
      $("[data-preview-action=apply-edited]", card).hidden = false;
    } else if (action === "apply" || action === "apply-edited") {
      const body = action === "apply-edited" ? { text: $("#preview-edit", card).value } : {};
      const out = await act(() => api("POST", url + "/apply", body), (o) =>
        "Applied: " + o.sources.length + " messages are now one" + (o.edited ? " (with your edits)" : "") + ". Undo brings them back."
      );
      if (out) {
        hidePreview();
        selected.clear();
        updateSelection();
      }
    } else if (action === "retry") {
      runAi(url + "/retry", {}, "Retrying the AI squash…");
    } else if (action === "discard") {
      try {
        await api("DELETE", url);
      } catch (e) {
        // Already gone: discarding it is what was wanted anyway.
      }
      hidePreview();
      flash("Discarded; nothing was changed.", "info");
    }
  }

  // ---- messages ----

  function openEdit(li) {
    $(".edit-form", li).hidden = false;
    $(".msg-body", li).hidden = true;
    $(".edit-form textarea", li).focus();
  }

  function closeEdit(li) {
    $(".edit-form", li).hidden = true;
    $(".msg-body", li).hidden = false;
  }

  async function saveEdit(form) {
    const li = form.closest(".msg");
    const text = form.elements.namedItem("text").value;
    let body;
    if (form.dataset.mode === "json") {
      try {
        body = { content: JSON.parse(text) };
      } catch (e) {
        flash("The content is not valid JSON: " + e.message, "error");
        return;
      }
    } else {
      body = { text };
    }
    await act(
      () => api("PUT", base + "/messages/" + encodeURIComponent(li.dataset.id), body),
      "Edited. Undo brings the original back."
    );
  }

  async function openProvenance(messageId) {
    try {
      const html = await fetchHtml("/ui/messages/" + encodeURIComponent(messageId) + "/provenance");
      $("#provenance-body").innerHTML = html; // server-rendered, escaped
      $("#provenance-dialog").showModal();
    } catch (e) {
      showError(e);
    }
  }

  // ---- chat ----

  async function chat() {
    const input = $("#chat-input");
    const text = input.value;
    // No model (the button is off and says why): Ctrl+Enter must not go around it.
    if (!text.trim() || chatting || root.dataset.ai !== "ready") return;
    chatting = true;
    clearFlash();
    $("#chat-send").disabled = true;
    const box = $("#chat-stream");
    const out = $("#chat-stream-text");
    out.textContent = "";
    // The person's own message shows at once, not only when the reply is done.
    $("#chat-sent-text").textContent = text;
    $("#chat-sent").hidden = false;
    box.hidden = false;
    try {
      await stream(base + "/chat", { text }, {
        delta: (t) => {
          out.textContent += t;
        },
      });
      input.value = "";
    } catch (e) {
      showError(e);
    } finally {
      chatting = false;
      box.hidden = true;
      $("#chat-sent").hidden = true;
      $("#chat-send").disabled = false;
      // The user's message is stored once the model was asked, whatever it answered.
      await refresh().catch(showError);
    }
  }

  async function append() {
    const input = $("#chat-input");
    const text = input.value;
    if (!text.trim()) {
      flash("Write the message first.", "error");
      return;
    }
    const role = $("#append-role").value;
    const out = await act(() => api("POST", base + "/messages", { role, text }));
    if (out) {
      input.value = "";
      input.focus();
    }
  }

  // ---- wiring: one delegated listener, so re-rendered parts keep working ----

  root.addEventListener("click", (ev) => {
    const t = ev.target;
    const box = t.closest(".select-box");
    if (box) return onBoxClick(box, ev);
    const more = t.closest(".load-output");
    if (more) return loadOutput(more);
    if (t.closest("#load-before")) return loadMore("before");
    if (t.closest("#load-after")) return loadMore("after");
    if (t.closest("#squash-btn")) return toggleMenu();
    const item = t.closest("[data-squash]");
    if (item) {
      const kind = item.dataset.squash;
      if (kind === "manual") return manualSquash();
      if (kind === "ai") return aiSquash(null);
      if (kind === "structured") return aiSquash(null, "structured");
      if (kind === "extract") return aiSquash(null, "extract");
      toggleMenu(false);
      $("#custom-instructions").value = "";
      $("#custom-dialog").showModal();
      return $("#custom-instructions").focus();
    }
    if (t.closest("#clear-selection")) {
      selected.clear();
      return updateSelection();
    }
    if (t.closest("#delete-selected")) {
      const ids = selectedIds();
      return act(() => api("POST", base + "/messages/delete", { messages: ids }), (o) =>
        "Removed " + o.sources.length + " message(s) from the thread (they stay stored). Undo brings them back."
      ).then((o) => {
        if (o) selected.clear();
        updateSelection();
      });
    }
    if (t.closest("#undo-btn")) {
      return act(() => api("POST", base + "/undo"), "Undone: back on the previous thread. Redo goes forward again.");
    }
    if (t.closest("#redo-btn")) return act(() => api("POST", base + "/redo"), "Redone.");
    if (t.closest("#history-btn")) {
      const panel = $("#history-panel");
      panel.hidden = !panel.hidden;
      return $("#history-btn").setAttribute("aria-expanded", String(!panel.hidden));
    }
    const sw = t.closest(".switch-btn");
    if (sw) {
      return act(() => api("POST", base + "/switch", { thread: sw.dataset.thread }), "Switched thread.");
    }
    const badge = t.closest(".prov-badge");
    if (badge) return openProvenance(badge.dataset.message);
    if (t.closest(".close-dialog")) return t.closest("dialog").close();
    if (t.closest("#custom-cancel")) return $("#custom-dialog").close();
    if (t.closest("#progress-cancel")) {
      if (running) running.abort();
      return;
    }
    const action = t.closest("[data-preview-action]");
    if (action) return previewAction(action.dataset.previewAction, action.closest(".preview-card"));
    const addButton = t.closest(".fact-add");
    if (addButton) return addFact(addButton, addButton.closest(".preview-card"));
    const msg = t.closest(".msg");
    if (msg && t.closest(".edit-btn")) return openEdit(msg);
    if (msg && t.closest(".cancel-edit")) return closeEdit(msg);
    if (msg && t.closest(".delete-btn")) {
      return act(
        () => api("DELETE", base + "/messages/" + encodeURIComponent(msg.dataset.id)),
        "Removed the message from the thread (it stays stored). Undo brings it back."
      );
    }
    if (t.closest("#append-btn")) return append();
  });

  root.addEventListener("submit", (ev) => {
    const form = ev.target;
    if (form.id === "custom-form") {
      // method=dialog closes the dialog by itself.
      return aiSquash($("#custom-instructions").value);
    }
    ev.preventDefault();
    if (form.id === "chat-form") return chat();
    if (form.id === "range-form") return selectRangeDialog(form);
    if (form.classList.contains("edit-form")) return saveEdit(form);
  });

  $("#chat-input").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      chat();
    }
  });

  document.addEventListener("click", (ev) => {
    if (!ev.target.closest("#squash-menu-wrap")) toggleMenu(false);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") toggleMenu(false);
  });

  // Live updates (live.js): the thread changed elsewhere. Re-render, but not while that would
  // disturb what the person is doing (an AI squash or chat running, an edit open): then look
  // again every second until it would not.
  let liveWaiting = false;
  function liveRefresh() {
    if (running || chatting || $(".edit-form:not([hidden])")) {
      if (!liveWaiting) {
        liveWaiting = true;
        setTimeout(() => {
          liveWaiting = false;
          liveRefresh();
        }, 1000);
      }
      return;
    }
    refresh().catch(showError);
  }
  root.addEventListener("squash:changed", liveRefresh);

  initFit(root, base, refresh);
  watchPager();
  updateSelection();
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target) {
    target.classList.add("target");
    target.scrollIntoView({ block: "center" });
  } else if (Number($("#thread").dataset.last) >= Number($("#thread").dataset.total)) {
    // Where the conversation continues.
    const last = $("#thread > li.msg:last-child");
    if (last) last.scrollIntoView({ block: "end" });
  }
}

// ---- fit to budget --------------------------------------------------------------------------
// The dialog loads the plan as a server-rendered fragment, applies it through the API (streamed
// step by step), then the card above the thread offers the undo.

const fmtTokens = (n) => Number(n).toLocaleString("en-US");

function fitStepLabel(step) {
  const what = { trim: "trimming", line: "the one-line extract of", extract: "extracting the facts of", ai: "AI-squashing" };
  const first = step.first_position + 1;
  const last = step.last_position + 1;
  const where = first === last ? "@" + first : "@" + first + "–@" + last;
  return (what[step.action] || step.action) + " " + where;
}

function initFit(root, base, refresh) {
  const dialog = $("#fit-dialog");
  if (!dialog) return;
  const cid = root.dataset.conversation;
  let applying = null; // the AbortController of the running fit
  let plan = null; // the previewed plan's element

  function canApply() {
    if (!plan || applying) return false;
    const mode = plan.dataset.canApply;
    const bestEffort = $("#fit-best-effort", plan);
    return mode === "yes" || (mode === "best-effort" && !!bestEffort && bestEffort.checked);
  }

  function updateApply() {
    const button = $("#fit-apply");
    button.disabled = !canApply();
    button.title = plan ? "" : "Preview a plan first";
  }

  function message(text, hint) {
    const box = $("#fit-message");
    box.textContent = text || "";
    if (hint) {
      const h = document.createElement("div");
      h.className = "small";
      h.textContent = hint;
      box.append(h);
    }
    box.hidden = !text;
  }

  function clearPlan() {
    plan = null;
    $("#fit-plan").replaceChildren();
    message("");
    updateApply();
  }

  function open() {
    clearPlan();
    $("#fit-progress").hidden = true;
    dialog.showModal();
    const budget = $("#fit-budget");
    budget.focus();
    budget.select();
  }

  function field(name, min) {
    const raw = $("#fit-form").elements.namedItem(name).value.trim();
    const n = Number(raw);
    return raw !== "" && Number.isInteger(n) && n >= min ? n : null;
  }

  async function preview() {
    const budget = field("budget", 1);
    const keep = field("keep_last", 0);
    const recentRaw = $("#fit-form").elements.namedItem("keep_recent").value.trim();
    const recent = field("keep_recent", 0);
    clearPlan();
    if (budget === null) return message("The budget is a whole number of tokens, at least 1.");
    if (recentRaw !== "" && recent === null) return message("The newest steps to keep are a whole number of tokens, 0 or more (empty: a fifth of the budget).");
    if (keep === null) return message("The turns to keep are a whole number, 0 or more.");
    const strategy = $("#fit-strategy").value;
    const query = new URLSearchParams({ budget: String(budget), keep_last: String(keep), strategy });
    if (recent !== null) query.set("keep_recent", String(recent));
    try {
      const res = await fetch("/ui/conversations/" + encodeURIComponent(cid) + "/fit?" + query, {
        credentials: "same-origin",
        headers: { Accept: "text/html" },
      });
      $("#fit-plan").innerHTML = await res.text(); // server-rendered, escaped: the plan or its error
      plan = $("#fit-plan .fit-plan");
    } catch (e) {
      message("Could not load the plan: " + e.message);
    }
    updateApply();
    $("#fit-apply").scrollIntoView({ block: "nearest" });
  }

  function showDone(out) {
    const steps = out.steps.length;
    $("#fit-done-text").textContent = out.thread
      ? "Fitted: " + fmtTokens(out.tokens_before) + " → " + fmtTokens(out.tokens_after) + " tokens in " +
        steps + " step" + (steps === 1 ? "" : "s") +
        (out.fits ? " (budget " + fmtTokens(out.budget) + ")." : ", best effort: the budget of " + fmtTokens(out.budget) + " was not reached.") +
        " The old thread is one undo away."
      : "The thread is within the budget already; nothing changed.";
    $("#fit-undo").hidden = !out.thread;
    $("#fit-done").hidden = false;
  }

  async function apply() {
    if (!canApply()) return;
    const d = plan.dataset;
    const body = { budget: Number(d.budget), keep_last: Number(d.keepLast), strategy: d.strategy, thread: d.thread };
    if (d.keepRecent !== undefined) body.keep_recent = Number(d.keepRecent);
    const bestEffort = $("#fit-best-effort", plan);
    if (bestEffort && bestEffort.checked) body.best_effort = true;
    applying = new AbortController();
    updateApply();
    message("");
    $("#fit-progress-text").textContent = "Applying the plan…";
    $("#fit-progress").hidden = false;
    try {
      const out = await stream(base + "/fit", body, {
        step: (p) => {
          $("#fit-progress-text").textContent = "Step " + p.index + " of " + p.of + ": " + fitStepLabel(p.step) + "…";
        },
      }, applying.signal);
      applying = null;
      dialog.close();
      await refresh();
      showDone(out);
    } catch (e) {
      if (e.name === "AbortError") message("Cancelled; nothing was changed.");
      else message(e.message, e.hint);
      await refresh().catch(showError);
    } finally {
      applying = null;
      $("#fit-progress").hidden = true;
      updateApply();
    }
  }

  async function undo() {
    try {
      await api("POST", base + "/undo");
      $("#fit-done").hidden = true;
      await refresh();
      flash("Undone: the thread is back as it was before the fit. Redo applies the fit again.", "info");
    } catch (e) {
      showError(e);
    }
  }

  root.addEventListener("click", (ev) => {
    const t = ev.target;
    if (t.closest("#fit-btn")) return open();
    if (t.closest("#fit-close")) return dialog.close();
    if (t.closest("#fit-apply")) return apply();
    if (t.closest("#fit-cancel")) return applying && applying.abort();
    if (t.closest("#fit-undo")) return undo();
    if (t.closest("#fit-done-close")) $("#fit-done").hidden = true;
  });
  $("#fit-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    preview();
  });
  // A changed field makes the shown plan stale.
  $("#fit-form").addEventListener("input", clearPlan);
  dialog.addEventListener("change", (ev) => {
    if (ev.target.id === "fit-best-effort") updateApply();
  });
  // Escape or ✕ while applying stops the fit: the server cancels the model call.
  dialog.addEventListener("close", () => {
    if (applying) applying.abort();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const conversation = $("#conversation");
  if (conversation) initConversation(conversation);
  else initHome();
});
