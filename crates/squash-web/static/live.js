// Live updates of the open conversation. Follows GET /api/conversations/{id}/events (server-sent
// events: a write made in another tab, or through another server on the same database) and,
// when the thread shown is no longer the current one at its revision, dispatches
// `squash:changed` on #conversation with {thread, revision, message_count}. It changes nothing
// itself: the page script decides whether and when to re-render.
(function () {
  "use strict";

  function shown() {
    const list = document.getElementById("thread");
    return list ? { thread: list.dataset.thread, revision: list.dataset.revision } : {};
  }

  function start() {
    const root = document.getElementById("conversation");
    if (!root || !root.dataset.conversation || typeof EventSource === "undefined") return;
    const url = "/api/conversations/" + encodeURIComponent(root.dataset.conversation) + "/events";
    const source = new EventSource(url);

    function onChange(ev) {
      let data;
      try {
        data = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      const now = shown();
      if (data.thread === now.thread && String(data.revision) === now.revision) return;
      root.dispatchEvent(new CustomEvent("squash:changed", { detail: data }));
    }

    // For people debugging and for the browser test: whether the stream is up.
    source.addEventListener("open", () => {
      root.dataset.live = "open";
    });
    // `current` comes first: it catches a change between the page's rendering and the stream.
    source.addEventListener("current", onChange);
    source.addEventListener("changed", onChange);
    // The server's own `error` event (the conversation is gone) ends the stream; a dropped
    // connection has no data, and EventSource reconnects by itself.
    source.addEventListener("error", (ev) => {
      if (ev.data) source.close();
    });
    window.addEventListener("pagehide", () => source.close());
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
