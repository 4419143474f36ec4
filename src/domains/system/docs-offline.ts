/**
 * The fallback of /docs and /redoc when their viewer cannot load (its assets are missing, e.g. a dev
 * Worker without a built dashboard, or it fails to start): a small reader that draws the API from
 * /openapi.json (operations by tag, parameters, bodies, responses, schemas). Plain DOM with
 * textContent only, so nothing from the document is ever parsed as HTML.
 */
export const OFFLINE_READER = `
window.fjOffline = function (specUrl) {
  if (window.fjOfflineDone) return;
  window.fjOfflineDone = true;
  var root = document.getElementById("offline");
  var ui = document.getElementById("ui");
  if (ui) ui.hidden = true;
  root.hidden = false;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function refName(s) {
    if (!s) return "";
    if (s.$ref) return s.$ref.split("/").pop();
    if (s.type === "array") return refName(s.items) + "[]";
    if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).map(refName).join(" | ");
    return s.type ? String(s.type) + (s.enum ? " (" + s.enum.join(", ") + ")" : "") : "object";
  }
  function bodyOf(content) {
    if (!content) return "";
    return Object.keys(content).map(function (t) { return t + ": " + refName(content[t].schema); }).join("; ");
  }
  fetch(specUrl).then(function (r) { return r.json(); }).then(function (doc) {
    root.appendChild(el("h1", "", (doc.info && doc.info.title) || "API"));
    root.appendChild(el("p", "note", "Plain reference (the interactive viewer could not be loaded from this server). Raw schema: " + specUrl));
    if (doc.info && doc.info.description) root.appendChild(el("p", "", doc.info.description));
    var byTag = {};
    var order = (doc.tags || []).map(function (t) { return t.name; });
    Object.keys(doc.paths || {}).forEach(function (path) {
      ["get", "post", "put", "patch", "delete"].forEach(function (m) {
        var op = doc.paths[path][m];
        if (!op) return;
        var tag = (op.tags && op.tags[0]) || "other";
        if (order.indexOf(tag) < 0) order.push(tag);
        (byTag[tag] = byTag[tag] || []).push({ path: path, method: m, op: op });
      });
    });
    var toc = el("nav", "toc");
    root.appendChild(toc);
    order.forEach(function (tag) {
      var ops = byTag[tag];
      if (!ops) return;
      var a = el("a", "", tag + " (" + ops.length + ")");
      a.href = "#tag-" + tag;
      toc.appendChild(a);
      var sec = el("section", "tag");
      sec.id = "tag-" + tag;
      sec.appendChild(el("h2", "", tag));
      var t = (doc.tags || []).filter(function (x) { return x.name === tag; })[0];
      if (t && t.description) sec.appendChild(el("p", "muted", t.description));
      ops.forEach(function (o) {
        var d = el("details", "op");
        var s = el("summary");
        s.appendChild(el("span", "method " + o.method, o.method.toUpperCase()));
        s.appendChild(el("code", "", o.path));
        s.appendChild(el("span", "sum", o.op.summary || ""));
        d.appendChild(s);
        if (o.op.operationId) d.appendChild(el("p", "muted", "operationId: " + o.op.operationId));
        if (o.op.description) d.appendChild(el("p", "", o.op.description));
        (o.op.parameters || []).forEach(function (p) {
          d.appendChild(el("p", "param", p.in + " " + p.name + (p.required ? " (required)" : "") + ": " +
            refName(p.schema) + (p.description ? " — " + p.description : "")));
        });
        if (o.op.requestBody) d.appendChild(el("p", "param", "body: " + bodyOf(o.op.requestBody.content)));
        Object.keys(o.op.responses || {}).forEach(function (code) {
          var r = o.op.responses[code];
          d.appendChild(el("p", "resp", code + " " + (r.description || "") + (r.content ? " — " + bodyOf(r.content) : "")));
        });
        sec.appendChild(d);
      });
      root.appendChild(sec);
    });
    var schemas = (doc.components && doc.components.schemas) || {};
    var ss = el("section", "tag");
    ss.appendChild(el("h2", "", "Schemas"));
    Object.keys(schemas).forEach(function (name) {
      var s = schemas[name];
      var d = el("details", "op");
      d.id = "schema-" + name;
      d.appendChild(el("summary", "", name));
      if (s.description) d.appendChild(el("p", "", s.description));
      var req = s.required || [];
      Object.keys(s.properties || {}).forEach(function (k) {
        var p = s.properties[k];
        d.appendChild(el("p", "param", k + (req.indexOf(k) >= 0 ? "" : "?") + ": " + refName(p) +
          (p.description ? " — " + p.description : "")));
      });
      ss.appendChild(d);
    });
    root.appendChild(ss);
  }).catch(function (e) { root.appendChild(el("p", "", "Could not read " + specUrl + ": " + e)); });
};
`;

export const OFFLINE_STYLE = `
#offline { max-width: 980px; margin: 0 auto; padding: 1rem; font: 15px/1.5 system-ui, sans-serif; color: #1b1f24; }
#offline .note, #offline .muted { color: #5b6470; }
#offline .toc { display: flex; flex-wrap: wrap; gap: 0.3rem 0.9rem; margin: 1rem 0; }
#offline details.op { border: 1px solid #d8dde3; border-radius: 8px; margin: 0.4rem 0; padding: 0.4rem 0.7rem; }
#offline summary { cursor: pointer; display: flex; gap: 0.6rem; align-items: baseline; flex-wrap: wrap; }
#offline .method { font: 700 0.75rem ui-monospace, monospace; padding: 0.1rem 0.4rem; border-radius: 4px; background: #e8edf2; }
#offline .method.get { background: #dcefe6; } #offline .method.post { background: #dde8f7; }
#offline .method.put, #offline .method.patch { background: #f6ecd6; } #offline .method.delete { background: #f7dede; }
#offline .sum { color: #3c4550; }
#offline p, #offline code, #offline summary, #offline h1, #offline h2 { overflow-wrap: anywhere; min-width: 0; }
#offline .param, #offline .resp { margin: 0.2rem 0; font: 0.85rem/1.4 ui-monospace, monospace; overflow-wrap: anywhere; }
`;
