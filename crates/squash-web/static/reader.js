// Squash web UI, reading and keyboard: relative times kept current, the Squash menu as a
// WAI-ARIA menu button, Escape to cancel a running AI squash, undo/redo/squash shortcuts and
// their help, focus moved to what a command opened, and the history panel as a sheet on
// phones. It drives app.js only through the page (clicks on its buttons, the `hidden`
// attribute), so the two stay independent.
//
// Safety: like app.js, it never turns data into markup; it sets text and attributes only.
"use strict";

(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  // ---- relative times -----------------------------------------------------------------------

  // The same words as the server's `message::relative_time`.
  function relativeTime(at, now) {
    const seconds = Math.floor((now - at) / 1000);
    const minutes = Math.floor(seconds / 60);
    const hours = Math.floor(minutes / 60);
    const days = Math.floor(hours / 24);
    if (seconds < 45 && seconds > -60) return "just now";
    if (seconds < 0) return at.toISOString().slice(0, 10);
    if (seconds < 90) return "1 min ago";
    if (minutes < 60) return minutes + " min ago";
    if (hours < 24) return hours + " h ago";
    if (days === 1) return "yesterday";
    if (days < 7) return days + " days ago";
    return at.toISOString().slice(0, 10);
  }

  function refreshTimes() {
    const now = new Date();
    for (const t of $$("time.rel[datetime]")) {
      const at = new Date(t.dateTime);
      if (!Number.isNaN(at.getTime())) t.textContent = relativeTime(at, now);
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  // Keys typed into a field belong to the field.
  function typing(el) {
    if (!el) return false;
    if (el.isContentEditable) return true;
    if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
    if (el.tagName !== "INPUT") return false;
    return !["checkbox", "radio", "button", "submit", "reset"].includes(el.type);
  }

  const visible = (el) => !!el && !el.hidden;
  const enabled = (el) => !!el && !el.disabled && !el.hidden;

  function caretToEnd(textarea) {
    if (!textarea) return;
    textarea.focus();
    const end = textarea.value.length;
    textarea.setSelectionRange(end, end);
    textarea.scrollTop = textarea.scrollHeight;
  }

  // ---- the Squash menu (WAI-ARIA menu button) -----------------------------------------------

  const menu = () => $("#squash-menu");
  const menuButton = () => $("#squash-btn");
  const menuOpen = () => visible(menu());
  const menuItems = () => $$("#squash-menu [role=menuitem]").filter(enabled);

  function focusItem(index) {
    const items = menuItems();
    if (!items.length) return;
    items[(index + items.length) % items.length].focus();
  }

  function openMenu(last) {
    if (!menuOpen()) menuButton().click(); // app.js opens it
    if (menuOpen()) focusItem(last ? -1 : 0);
  }

  function closeMenu() {
    const m = menu();
    if (!m) return;
    m.hidden = true;
    menuButton().setAttribute("aria-expanded", "false");
    menuButton().focus();
  }

  function onMenuKey(ev) {
    const items = menuItems();
    const at = items.indexOf(document.activeElement);
    const moves = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      Home: 0,
      End: items.length - 1,
    };
    if (ev.key in moves) {
      ev.preventDefault();
      focusItem(moves[ev.key]);
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      ev.stopPropagation();
      closeMenu();
    } else if (ev.key === "Tab") {
      // Leaving the menu closes it; the focus moves on as Tab says.
      menu().hidden = true;
      menuButton().setAttribute("aria-expanded", "false");
    }
  }

  // ---- shortcuts ----------------------------------------------------------------------------

  function clickIfEnabled(sel) {
    const el = $(sel);
    if (!enabled(el)) return false;
    el.click();
    return true;
  }

  function openHelp() {
    const dialog = $("#shortcuts-dialog");
    if (dialog && !dialog.open) dialog.showModal();
  }

  function onKey(ev) {
    const target = ev.target;
    if (menuOpen() && target.closest && target.closest("#squash-menu")) return onMenuKey(ev);
    if (ev.key === "Escape") return onEscape(ev, target);
    if (target === menuButton() && (ev.key === "ArrowDown" || ev.key === "ArrowUp")) {
      ev.preventDefault();
      return openMenu(ev.key === "ArrowUp");
    }
    if (typing(target) || ev.altKey || $("dialog[open]")) return;
    const mod = ev.ctrlKey || ev.metaKey;
    const key = ev.key.toLowerCase();
    if (mod && key === "z" && !ev.shiftKey) {
      if (clickIfEnabled("#undo-btn")) ev.preventDefault();
    } else if (mod && ((key === "z" && ev.shiftKey) || (key === "y" && !ev.shiftKey))) {
      if (clickIfEnabled("#redo-btn")) ev.preventDefault();
    } else if (!mod && key === "s" && !ev.shiftKey) {
      if (enabled(menuButton())) {
        ev.preventDefault();
        openMenu(false);
      }
    } else if (!mod && ev.key === "?") {
      ev.preventDefault();
      openHelp();
    }
  }

  function onEscape(ev, target) {
    if (menuOpen()) {
      ev.preventDefault();
      ev.stopPropagation();
      return closeMenu();
    }
    // A modal dialog handles its own Escape.
    if ($("dialog[open]")) return;
    const form = target.closest && target.closest(".edit-form");
    if (form) {
      const li = form.closest(".msg");
      const cancel = $(".cancel-edit", form);
      if (cancel) cancel.click();
      const edit = li && $(".edit-btn", li);
      if (edit) edit.focus();
      return;
    }
    if (visible($("#progress")) && clickIfEnabled("#progress-cancel")) {
      ev.preventDefault();
      return;
    }
    const panel = $("#history-panel");
    if (visible(panel) && window.matchMedia("(max-width: 900px)").matches) {
      ev.preventDefault();
      closeHistory();
    }
  }

  // ---- focus follows what a command opened --------------------------------------------------

  function closeHistory() {
    const button = $("#history-btn");
    if (visible($("#history-panel")) && button) button.click(); // app.js hides it
    if (button) button.focus();
  }

  // After app.js handled the click (its listener is on the page's root, this one on the
  // document, so this one runs second).
  function onClick(ev) {
    const t = ev.target;
    if (!t.closest) return;
    if (t.closest("#squash-btn")) {
      if (menuOpen()) focusItem(0);
      return;
    }
    const msg = t.closest(".msg");
    if (msg && t.closest(".edit-btn")) return caretToEnd($(".edit-form textarea", msg));
    if (t.closest("[data-preview-action=edit]") || t.closest(".fact-add")) {
      return caretToEnd($("#preview-edit"));
    }
    if (t.closest("#history-btn")) {
      const panel = $("#history-panel");
      if (visible(panel)) {
        const heading = $(".history h2", panel);
        if (heading) {
          heading.tabIndex = -1;
          heading.focus({ preventScroll: true });
        }
        panel.scrollIntoView({ block: "nearest" });
      }
      return;
    }
    if (t.closest(".history-close")) return closeHistory();
    if (t.closest("#shortcuts-btn")) return openHelp();
  }

  // The progress card and the preview are shown by app.js when an AI squash starts and ends.
  function watch(el, onShown, onHidden) {
    if (!el) return;
    let shown = visible(el) && el.childElementCount > 0;
    new MutationObserver(() => {
      const now = visible(el) && el.childElementCount > 0;
      if (now && !shown) onShown(el);
      if (!now && shown && onHidden) onHidden(el);
      shown = now;
    }).observe(el, { attributes: true, attributeFilter: ["hidden"], childList: true });
  }

  function focusLost(el) {
    const active = document.activeElement;
    return !active || active === document.body || el.contains(active);
  }

  // The shortcuts on the buttons they press, for screen readers and in their titles.
  function annotate() {
    const shortcuts = [
      ["#undo-btn", "Control+Z Meta+Z", "Ctrl+Z"],
      ["#redo-btn", "Control+Shift+Z Meta+Shift+Z Control+Y", "Ctrl+Shift+Z"],
    ];
    for (const [sel, keys, words] of shortcuts) {
      const el = $(sel);
      if (!el || el.hasAttribute("aria-keyshortcuts")) continue;
      el.setAttribute("aria-keyshortcuts", keys);
      el.title = el.title ? el.title + " (" + words + ")" : words;
    }
    const squash = menuButton();
    if (squash) squash.setAttribute("aria-keyshortcuts", "S");
    for (const item of $$("#squash-menu [role=menuitem]")) item.tabIndex = -1;
  }

  function init() {
    refreshTimes();
    setInterval(refreshTimes, 30000);
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("click", onClick);

    annotate();
    // app.js re-renders the undo and redo buttons after every change.
    const toolbar = $("#toolbar");
    if (toolbar) new MutationObserver(annotate).observe(toolbar, { childList: true });
    const help = $("#shortcuts-btn");
    if (help && $("#shortcuts-dialog")) help.hidden = false;

    watch($("#progress"), () => {
      const cancel = $("#progress-cancel");
      if (cancel) cancel.focus();
    }, (el) => {
      if (focusLost(el) && enabled(menuButton())) menuButton().focus();
    });
    const preview = $("#preview");
    watch(preview, (el) => {
      el.tabIndex = -1;
      el.focus({ preventScroll: true });
    });
  }

  document.addEventListener("DOMContentLoaded", init);
})();
