
// ---- show the original, sub-agent runs ------------------------------------------------------
// Under a message a fit or squash made, "Show the original" opens the messages it stands for
// (GET /ui/operations/{id}/sources), a page at a time; under the call that started a sub-agent,
// the fold of its run loads the run when first opened (GET /ui/conversations/{id}/run). Both
// go inline, without reloading the page; what they load may hold further originals, which open
// the same way. Served as the end of app.js (its `$`). Like app.js, it inserts only HTML the
// server rendered (and escaped), and sets text with textContent.
(function () {
  "use strict";

  let slots = 0;

  // A fragment's HTML; a refusal's own message (a 404 names what is unknown) as the error.
  async function load(url) {
    const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (res.ok) return res.text();
    let message = "The server answered with status " + res.status + ".";
    try {
      const data = await res.json();
      if (data && data.error && data.error.message) message = data.error.message;
    } catch (_) {
      // Not the API's error shape: the status says enough.
    }
    throw new Error(message);
  }

  // Appends the fragment `html` to `target`; returns what was added.
  function add(target, html, before) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const nodes = Array.from(doc.body.childNodes).map((n) => document.importNode(n, true));
    for (const n of nodes) target.insertBefore(n, before || null);
    return nodes;
  }

  function failed(target, err, before) {
    const p = document.createElement("p");
    p.className = "originals-error";
    p.setAttribute("role", "alert");
    p.textContent = "Could not load it: " + err.message;
    target.insertBefore(p, before || null);
  }

  // The slot of a "Show the original" button: the one of its own message.
  function slotOf(button) {
    const item = button.closest("li");
    return item && $(":scope > .originals", item);
  }

  async function toggleOriginal(button) {
    const slot = slotOf(button);
    if (!slot) return;
    if (!slot.id) slot.id = "originals-" + ++slots;
    button.setAttribute("aria-controls", slot.id);
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    button.textContent = open ? button.dataset.hide : button.dataset.show;
    slot.hidden = !open;
    if (open) await fillOnce(slot, slot, button.dataset.src);
  }

  // Loads `url` into `target` the first time (`holder` remembers it); a failure says why and
  // lets the next opening try again.
  async function fillOnce(holder, target, url) {
    if (holder.dataset.loaded) return;
    holder.dataset.loaded = "1";
    target.setAttribute("aria-busy", "true");
    try {
      add(target, await load(url));
    } catch (e) {
      delete holder.dataset.loaded;
      failed(target, e);
    } finally {
      target.removeAttribute("aria-busy");
    }
  }

  // The next page, in place of its button; the focus goes to the page's list.
  async function more(button) {
    if (button.disabled) return;
    button.disabled = true;
    try {
      const added = add(button.parentNode, await load(button.dataset.src), button);
      button.remove();
      const list = added.find((n) => n.nodeType === 1 && n.matches("ol"));
      if (list) list.focus({ preventScroll: true });
    } catch (e) {
      button.disabled = false;
      failed(button.parentNode, e, button);
    }
  }

  function openRun(fold) {
    const body = $(":scope > .run-body", fold);
    if (fold.open && body) fillOnce(fold, body, fold.dataset.src);
  }

  document.addEventListener("click", (ev) => {
    const t = ev.target;
    if (!t.closest) return;
    const show = t.closest(".show-original");
    if (show) return toggleOriginal(show);
    const next = t.closest(".originals-more");
    if (next) return more(next);
  });
  // `toggle` does not bubble: caught on its way down.
  document.addEventListener(
    "toggle",
    (ev) => {
      if (ev.target.matches && ev.target.matches("details.subagent-run")) openRun(ev.target);
    },
    true
  );
})();
