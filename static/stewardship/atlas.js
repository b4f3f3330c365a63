// The category atlas (Apache ECharts treemap): boxes sized by memory count, coloured by freshness
// (1: changed today → green, 0: months ago → grey). Clicking a box or a row of the table lists its
// memories next to the picture (htmx, into #atlas-drill), scrolled into view, and outlines the box
// listed. Data comes from the page (json_script); the picture is drawn again whenever htmx swaps in
// a new one (filters). The tooltip stays inside the canvas (richText), so nothing sets an inline
// style the page's Content-Security-Policy would refuse.
(function () {
  "use strict";

  const STALE = [160, 174, 192];
  const FRESH = [47, 133, 90];
  const CHOSEN = "#c05621";
  let chart = null;
  let drawn = [];

  function colour(freshness) {
    const mix = STALE.map(function (stale, i) {
      return Math.round(stale + (FRESH[i] - stale) * Math.max(0, Math.min(1, freshness)));
    });
    return "rgb(" + mix.join(",") + ")";
  }

  // Each box its colour; the one whose memories are listed (``chosen``) outlined as well.
  function paint(nodes, chosen) {
    nodes.forEach(function (node) {
      node.itemStyle = { color: colour(node.freshness) };
      if (node.path === chosen) {
        node.itemStyle.borderColor = CHOSEN;
        node.itemStyle.borderWidth = 4;
      }
      if (node.children) paint(node.children, chosen);
    });
    return nodes;
  }

  // The category the drill-down lists, as the page says it (a click, a row, or the address).
  function listed() {
    const path = document.getElementById("atlas-drill-path");
    return path ? path.textContent.trim() : "";
  }

  function choose(path) {
    const target = holder();
    if (chart && target) {
      chart.setOption({ series: [{ data: paint(drawn, path) }] });
      target.dataset.chosen = path;
    }
    document.querySelectorAll(".atlas-table tr").forEach(function (row) {
      const link = row.querySelector("a");
      const mine = Boolean(link) && link.textContent.trim() === path;
      row.classList.toggle("chosen", mine);
      if (mine) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
    });
  }

  function draw() {
    const source = document.getElementById("atlas-data");
    const target = holder();
    if (chart) {
      chart.dispose();
      chart = null;
    }
    if (!source || !target || typeof echarts === "undefined") return;
    const nodes = paint(JSON.parse(source.textContent), listed());
    drawn = nodes;
    chart = echarts.init(target, null, { renderer: "canvas" });
    chart.setOption({
      animation: false,
      tooltip: {
        renderMode: "richText",
        formatter: function (info) {
          const data = info.data || {};
          return (data.path || info.name) + "\n" + info.value + " memories, newest change " + String(data.newest || "").slice(0, 10);
        },
      },
      series: [
        {
          type: "treemap",
          name: "all categories",
          data: nodes,
          left: 4,
          right: 4,
          top: 4,
          bottom: 4,
          leafDepth: 2,
          // A click lists the box's memories; the focus filter narrows the picture to a subtree.
          nodeClick: false,
          roam: false,
          breadcrumb: { show: false },
          label: { show: true, formatter: "{b}" },
          upperLabel: { show: true, height: 20 },
          levels: [
            { itemStyle: { borderColor: "#4a5568", borderWidth: 2, gapWidth: 2 } },
            { itemStyle: { borderColor: "#718096", borderWidth: 1, gapWidth: 1 } },
            { itemStyle: { borderColor: "#a0aec0", borderWidth: 1 } },
          ],
        },
      ],
    });
    chart.on("click", function (event) {
      const path = event.data && event.data.path;
      if (!path || typeof htmx === "undefined") return;
      const url = target.dataset.drillUrl + "category=" + encodeURIComponent(path);
      htmx.ajax("GET", url, { target: "#atlas-drill" });
      choose(path);
    });
    // The holder's size is final only once the stylesheet has laid the page out.
    window.requestAnimationFrame(function () {
      if (chart) chart.resize();
    });
    target.dataset.drawn = "true";
    target.dataset.boxes = String(count(nodes));
    if (listed()) choose(listed());
  }

  function count(nodes) {
    return nodes.reduce(function (sum, node) {
      return sum + 1 + (node.children ? count(node.children) : 0);
    }, 0);
  }

  // The holder has no id: htmx would carry the old holder's attributes over to a new one with
  // the same id while it settles, and the inline style ECharts gave the old one would then be an
  // attribute the policy refuses. The old picture goes before the swap all the same.
  function holder() {
    return document.querySelector("[data-atlas-chart]");
  }

  function clear() {
    const target = holder();
    drawn = [];
    if (chart) {
      chart.dispose();
      chart = null;
    }
    if (target) {
      target.removeAttribute("style");
      target.removeAttribute("_echarts_instance_");
    }
  }

  document.addEventListener("DOMContentLoaded", draw);
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "atlas-body") clear();
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    const swapped = event.detail && event.detail.target && event.detail.target.id;
    if (swapped === "atlas-body") draw();
    if (swapped === "atlas-drill") {
      choose(listed());
      // Next to the picture on a wide screen (often in view already), under the table on a narrow one.
      const drill = document.getElementById("atlas-drill-section");
      if (drill) drill.scrollIntoView({ block: "nearest" });
    }
  });
  window.addEventListener("resize", function () {
    if (chart) chart.resize();
  });
})();
