// A memory's neighbourhood as a picture (Cytoscape.js): the memory in the middle, linked memories
// around it, edges labelled by type; superseded memories and SUPERSEDES edges dashed, CONTRADICTS
// red. Clicking a memory opens its page. Data comes from the page (json_script).
(function () {
  "use strict";

  function label(text) {
    return text.length > 48 ? text.slice(0, 47) + "…" : text;
  }

  function draw() {
    const source = document.getElementById("memory-graph-data");
    const target = document.getElementById("memory-graph");
    if (!source || !target || typeof cytoscape === "undefined") return;
    const graph = JSON.parse(source.textContent);
    const elements = [];
    graph.nodes.forEach(function (node) {
      const classes = [node.superseded ? "superseded" : "current"];
      if (node.id === graph.center) classes.push("center");
      elements.push({ data: { id: node.id, label: label(node.content) }, classes: classes.join(" ") });
    });
    graph.edges.forEach(function (edge, index) {
      elements.push({
        data: { id: "e" + index, source: edge.source, target: edge.target, label: edge.type },
        classes: edge.type.toLowerCase(),
      });
    });
    const view = cytoscape({
      container: target,
      elements: elements,
      layout: { name: "preset" },
      style: [
        { selector: "node", style: { "background-color": "#2b6cb0", label: "data(label)", "font-size": 10, "text-wrap": "wrap", "text-max-width": 140, color: "#1a202c", "text-valign": "bottom", "text-margin-y": 4, width: 18, height: 18 } },
        { selector: "node.center", style: { "background-color": "#c05621", width: 26, height: 26, "font-weight": "bold" } },
        { selector: "node.superseded", style: { "background-color": "#a0aec0", "border-width": 2, "border-style": "dashed", "border-color": "#4a5568" } },
        { selector: "edge", style: { width: 1.5, "line-color": "#718096", "target-arrow-color": "#718096", "target-arrow-shape": "triangle", "curve-style": "bezier", label: "data(label)", "font-size": 8, "text-rotation": "autorotate", color: "#4a5568" } },
        { selector: "edge.supersedes", style: { "line-style": "dashed" } },
        { selector: "edge.contradicts", style: { "line-color": "#c53030", "target-arrow-color": "#c53030", color: "#c53030" } },
      ],
    });
    // The root by reference: a selector "#" + id is not valid CSS for an id starting with a digit
    // (most UUIDs), and Cytoscape would ignore it.
    const root = view.getElementById(graph.center);
    view.layout({ name: "breadthfirst", roots: root, directed: false, padding: 20, spacingFactor: 1.1 }).run();
    view.on("tap", "node", function (event) {
      const id = event.target.id();
      if (id !== graph.center) {
        const viewer = new URLSearchParams(window.location.search).get("as");
        window.location.href = "/steward/memories/" + id + "/" + (viewer ? "?as=" + encodeURIComponent(viewer) : "");
      }
    });
    target.dataset.root = root.nonempty() ? root.id() : "";
    target.dataset.nodes = String(view.nodes().length);
    target.dataset.edges = String(view.edges().length);
  }

  document.addEventListener("DOMContentLoaded", draw);
})();
