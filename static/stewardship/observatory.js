// The observatory's 24-hour chart: writes and searches per hour, and their p95 on a second axis.
// Data comes from the page (json_script); nothing is fetched.
(function () {
  "use strict";

  function draw() {
    const source = document.getElementById("activity-series");
    const target = document.getElementById("activity-chart");
    if (!source || !target || typeof uPlot === "undefined") return;
    const series = JSON.parse(source.textContent);
    const options = {
      width: Math.max(target.clientWidth, 320),
      height: 220,
      scales: { x: { time: true }, calls: {}, ms: {} },
      axes: [
        {},
        { scale: "calls", label: "calls" },
        { scale: "ms", side: 1, label: "p95 ms", grid: { show: false } },
      ],
      series: [
        {},
        { label: "writes", scale: "calls", stroke: "#2b6cb0", width: 2 },
        { label: "searches", scale: "calls", stroke: "#2f855a", width: 2 },
        { label: "p95 (ms)", scale: "ms", stroke: "#c05621", width: 1, dash: [4, 4] },
      ],
    };
    const chart = new uPlot(options, [series.hours, series.writes, series.searches, series.p95_ms], target);
    target.dataset.drawn = "true";
    window.addEventListener("resize", function () {
      chart.setSize({ width: Math.max(target.clientWidth, 320), height: 220 });
    });
  }

  document.addEventListener("DOMContentLoaded", draw);
})();
