
// ---- resume in an agent ---------------------------------------------------------------------
// "Resume in…": writes the conversation as a new session of the agent chosen (POST
// /api/conversations/{id}/resume) and shows where it went and the command that resumes it.
// Served as the end of app.js (its `api` and `$`). Text goes in with textContent only.
(function () {
  "use strict";

  function start() {
    const root = document.getElementById("conversation");
    const dialog = document.getElementById("resume-dialog");
    if (!root || !dialog) return;
    const cid = root.dataset.conversation;
    const form = $("#resume-form");

    function say(text) {
      const box = $("#resume-message");
      box.textContent = text || "";
      box.hidden = !text;
    }

    function body() {
      const out = { agent: $("#resume-agent").value, strategy: $("#resume-strategy").value };
      const budget = $("#resume-budget").value.trim();
      if (budget !== "") out.budget = Number(budget);
      if ($("#resume-best-effort").checked) out.best_effort = true;
      const whole = $("#resume-whole-history");
      if (whole && whole.checked) out.history = "whole";
      return out;
    }

    function show(out) {
      const fit = out.fit;
      const written = out.written;
      const size = fit.thread
        ? "fitted from " + fit.tokens_before.toLocaleString("en-US") + " to " +
          fit.tokens_after.toLocaleString("en-US") + " tokens"
        : "within the budget of " + fit.budget.toLocaleString("en-US") + " tokens, written as it is";
      $("#resume-summary").textContent =
        "New " + written.agent + " session " + written.session_id + " written to " + written.path +
        " (" + size + ").";
      const warnings = $("#resume-warnings");
      warnings.replaceChildren();
      for (const w of out.warnings || []) {
        const li = document.createElement("li");
        li.textContent = w;
        warnings.append(li);
      }
      $("#resume-command").textContent = out.command;
      $("#resume-done").hidden = false;
    }

    async function write() {
      say("");
      $("#resume-done").hidden = true;
      const button = $("#resume-write");
      button.disabled = true;
      try {
        const url = "/api/conversations/" + encodeURIComponent(cid) + "/resume";
        show(await api("POST", url, body()));
      } catch (err) {
        say(err.message + (err.hint ? " " + err.hint : ""));
      } finally {
        button.disabled = false;
      }
    }

    document.addEventListener("click", (ev) => {
      const t = ev.target;
      if (!(t instanceof Element)) return;
      if (t.closest("#resume-btn")) {
        say("");
        dialog.showModal();
      } else if (t.closest("#resume-close")) {
        dialog.close();
      } else if (t.closest("#resume-copy") && navigator.clipboard) {
        navigator.clipboard.writeText($("#resume-command").textContent).catch(() => {});
      }
    });
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      write();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
