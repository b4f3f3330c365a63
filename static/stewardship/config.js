// The settings pages' filter: as the steward types, only the settings whose name or meaning holds
// every word typed stay in view (and, when asked, only those that differ from their default); a
// section left empty goes too. Rows are hidden with the hidden attribute, never restyled (the
// room's policy refuses inline styles). A swap of the list (a refused or reviewed patch) keeps
// the filter as it was typed.
(function () {
  "use strict";

  function refilter(id) {
    const list = document.getElementById(id);
    const typed = document.querySelector('[data-filters="' + id + '"]');
    const changed = document.querySelector('[data-changed-only="' + id + '"]');
    if (!list || !typed) return;
    const words = typed.value.toLowerCase().split(/\s+/).filter(Boolean);
    const onlyChanged = changed !== null && changed.checked;
    let shown = 0;
    let total = 0;
    for (const row of list.querySelectorAll("[data-setting]")) {
      const text = row.getAttribute("data-text") || "";
      const keep = words.every((word) => text.includes(word)) && (!onlyChanged || row.dataset.changed === "true");
      row.hidden = !keep;
      total += 1;
      shown += keep ? 1 : 0;
    }
    for (const section of list.querySelectorAll("[data-settings-section]")) {
      section.hidden = section.querySelector("[data-setting]:not([hidden])") === null;
    }
    const count = document.getElementById(id + "-shown");
    if (count) count.textContent = shown === total ? "" : shown + " of " + total + " settings";
  }

  function refilterAll() {
    for (const input of document.querySelectorAll("[data-filters]")) refilter(input.dataset.filters);
  }

  document.addEventListener("input", (event) => {
    const id = event.target.dataset && (event.target.dataset.filters || event.target.dataset.changedOnly);
    if (id) refilter(id);
  });
  document.addEventListener("change", (event) => {
    const id = event.target.dataset && event.target.dataset.changedOnly;
    if (id) refilter(id);
  });
  document.addEventListener("htmx:afterSettle", refilterAll);
  document.addEventListener("DOMContentLoaded", refilterAll);
})();
