// relfterrain's limitless map: world metres on Leaflet's CRS.Simple (one unit = one
// metre, lat = world y north, lng = world x east); zoom z is 2**-z metres a pixel.
"use strict";
(async function () {
  const info = await (await fetch("api/world")).json();
  document.getElementById("world").textContent = "fingerprint " + info.fingerprint.slice(0, 8);
  const map = L.map("map", {
    crs: L.CRS.Simple, minZoom: info.minzoom, maxZoom: info.maxzoom + 2,
    zoomSnap: 1, attributionControl: true,
  }).setView([info.start[1], info.start[0]], 0);
  window.rtMap = map;
  const limit = info.kind === "galaxy" ? 131072 : 2 ** 26;
  map.setMaxBounds([[-limit, -limit], [limit, limit]]);
  const tileOptions = {
    tileSize: info.tileSize, minZoom: info.minzoom, maxZoom: info.maxzoom + 2,
    maxNativeZoom: info.maxzoom, minNativeZoom: info.minzoom, noWrap: true,
    bounds: [[-limit, -limit], [limit, limit]],
    attribution: "Relf Terrain Generator (The Forest) &middot; relfterrain",
  };
  const cursor = document.getElementById("cursor");
  const layer = (name) => L.tileLayer("tiles/" + name + "/{z}/{x}/{y}.png", tileOptions);
  const titles = {
    map: "Map (The Forest)", hillshade: "Hillshade", height: "Height",
    terrarium: "Height (Terrarium RGB)", kinds: "Terrain kinds", features: "Point features",
    stars: "Stars (z 1..300 ly)",
  };
  const base = {}, overlays = {};
  for (const name of Object.keys(info.layers)) {
    (name === "features" ? overlays : base)[titles[name] || name] = layer(name);
  }
  Object.values(base)[0].addTo(map);
  L.control.layers(base, overlays, { collapsed: false }).addTo(map);
  const unit = info.kind === "galaxy" ? " ly" : " m";
  cursor.textContent = "x -, y -" + unit;
  if (info.kind === "galaxy") {
    for (const id of ["site", "stream", "clear"]) { document.getElementById(id).style.display = "none"; }
    document.getElementById("readout").textContent = "A galaxy: x and y in light years.";
  }
  if (info.kind !== "galaxy") {  // Leaflet's scale speaks metres; a galaxy's unit is the light year
    L.control.scale({ metric: true, imperial: false, maxWidth: 200 }).addTo(map);
  }

  const fmt = (v) => Math.round(v).toString();
  map.on("mousemove", (e) => {
    cursor.textContent = "x " + fmt(e.latlng.lng) + ", y " + fmt(e.latlng.lat) + unit;
  });
  const drawn = L.layerGroup().addTo(map);
  const readout = document.getElementById("readout");
  const status = document.getElementById("status");
  let picked = null;
  // the status line and the readout show the latest request's answer: an
  // earlier one that answers later (a long stream after a quick site) draws
  // on the map but does not overwrite them
  let latestAction = 0, latestClick = 0;

  async function getJSON(url) {
    const r = await fetch(url);
    if (!r.ok) { throw new Error(await r.text()); }
    return r.json();
  }
  function here() {
    const c = picked || map.getCenter();
    return "x=" + encodeURIComponent(c.lng) + "&y=" + encodeURIComponent(c.lat);
  }
  map.on("click", async (e) => {
    picked = e.latlng;
    if (info.kind === "galaxy") { return; }
    const mine = ++latestClick;
    try {
      const t = await getJSON("api/terra?" + here());
      if (mine !== latestClick) { return; }
      readout.innerHTML = "<table>" +
        "<tr><td>x, y</td><td>" + fmt(t.x) + ", " + fmt(t.y) + " m</td></tr>" +
        "<tr><td>height</td><td>" + t.height.toFixed(1) + " m</td></tr>" +
        "<tr><td>kind</td><td>" + t.terrain + "</td></tr>" +
        "<tr><td>feature</td><td>" + t.feature + (t.code ? " (" + t.code + ")" : "") +
        "</td></tr>" + (t.depth > 0 ? "<tr><td>depth</td><td>" + t.depth.toFixed(1) +
        " m</td></tr>" : "") + "</table>";
      readout.dataset.ready = "1";
    } catch (err) { if (mine === latestClick) { readout.textContent = String(err.message); } }
  });
  function say(mine, text) { if (mine === latestAction) { status.textContent = text; } }
  document.getElementById("site").onclick = async () => {
    const mine = ++latestAction;
    say(mine, "looking for a good site...");
    try {
      const f = await getJSON("api/site?" + here());
      L.geoJSON(f, { pointToLayer: (_, ll) => L.circleMarker(ll, {
        radius: 7, color: "#c00", weight: 3, fillOpacity: 0.2 }) }).addTo(drawn);
      say(mine, (f.properties.ok ? "good site" : "no good site: " +
        f.properties.reason) + " at " + f.geometry.coordinates.join(", "));
    } catch (err) { say(mine, String(err.message)); }
  };
  document.getElementById("stream").onclick = async () => {
    const mine = ++latestAction;
    say(mine, "tracing...");
    try {
      const f = await getJSON("api/stream?" + here());
      L.geoJSON(f, { style: { color: "#0050ff", weight: 4 } }).addTo(drawn);
      say(mine, "stream of " + f.properties.points + " points, " +
        f.properties.length.toFixed(0) + " m, ends in a " + f.properties.end);
    } catch (err) { say(mine, String(err.message)); }
  };
  document.getElementById("clear").onclick = () => {
    latestAction++;
    drawn.clearLayers();
    status.textContent = "";
  };
  document.body.dataset.ready = "1";
})();
