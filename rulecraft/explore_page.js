// rulecraft explore: the page's script. Everything comes from the JSON API under /api/; text is
// always set as text (names and values from users' files must show, never run). The board picture
// is the game's own SVG drawing, inlined as the HTML reports inline it.
"use strict";

let trace = null;
let current = 0;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

async function api(path, options) {
  const reply = await fetch(path, options);
  const data = await reply.json();
  if (!reply.ok) throw new Error(data.error || reply.statusText);
  return data;
}

function ruleLink(rule) {
  const a = el("a", { class: "rule", href: "/rules#" + encodeURIComponent(rule.id), text: rule.id });
  if (rule.statement) a.title = (rule.page ? "p." + rule.page + ": " : "") + rule.statement;
  return a;
}

// Text with the printed example IDs the server named (trace.examples: those the rules digest holds)
// as links to their entries on the rules page; any other ID stays plain text.
function withExampleLinks(text, examples) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(/\b[A-Z]{2,4}-EX-\d{1,4}[a-z]?\b/g)) {
    if (!(m[0] in examples)) continue;
    out.push(text.slice(last, m.index));
    out.push(el("a", { class: "example", href: "/rules#" + encodeURIComponent(m[0]), text: m[0], title: examples[m[0]] }));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

function rulesLine(rules) {
  const span = el("span", { class: "rules" });
  rules.forEach((rule, i) => {
    if (i) span.append(", ");
    span.append(ruleLink(rule));
  });
  return span;
}

// The state as a tree; each node carries its path (boards[1].chips), the same as the server's diff.
function tree(value, path, differs) {
  const mark = (node) => {
    node.dataset.path = path;
    if (differs.has(path)) node.classList.add("differs");
    return node;
  };
  if (value !== null && typeof value === "object") {
    const list = el("ul");
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    for (const [key, child] of entries) {
      const sub = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : String(key);
      const item = el("li", {}, el("span", { class: "key", text: Array.isArray(value) ? `[${key}] ` : `${key}: ` }));
      item.append(tree(child, sub, differs));
      list.append(item);
    }
    if (!entries.length) return mark(el("span", { class: "leaf", text: Array.isArray(value) ? "[]" : "{}" }));
    return path ? mark(list) : list;
  }
  return mark(el("span", { class: "leaf", text: JSON.stringify(value) }));
}

function sideView(side, differs, onlyHere) {
  const box = el("div", { class: "side" }, el("h2", { text: side.label }));
  if (side.note) {
    box.append(el("p", { class: "note", text: side.note }));
    return box;
  }
  if (side.refused) {
    const what = side.refused.step ? `refused step ${side.refused.step}: ` : "refused the start: ";
    box.append(el("p", { class: "refusal", text: what + side.refused.rule +
      (side.refused.page ? ` (p.${side.refused.page})` : "") + " — " + side.refused.reason }));
    return box;
  }
  box.append(el("p", { class: "mover", text: "to move: " + side.to_move }));
  if (side.outcome) box.append(el("p", { class: "outcome", text: "outcome: " + JSON.stringify(side.outcome) }));
  if (side.patched) box.append(el("p", { text: "the reported values of: " + side.patched.join(", ") }));
  if (side.picture) {
    const picture = el("div", { class: "picture" });
    picture.innerHTML = side.picture;
    box.append(picture);
  }
  box.append(el("details", {}, el("summary", { text: "as text" }), el("pre", { text: side.text })));
  const legal = el("ul", { class: "legal" });
  for (const item of side.legal) {
    const key = JSON.stringify(sortKeys(item.action));
    const li = el("li", {}, el("span", { class: "act", text: item.text, title: key }));
    if (onlyHere.has(key)) li.classList.add("only-here");
    if (item.rules.length) li.append(" — ", rulesLine(item.rules));
    li.querySelector(".act").addEventListener("click", () => {
      document.getElementById("try-action").value = JSON.stringify(item.action);
    });
    legal.append(li);
  }
  const more = side.legal_total > side.legal.length ? ` (the first ${side.legal.length})` : "";
  box.append(el("h2", { text: `legal actions: ${side.legal_total}${more}` }), legal);
  const state = el("div", { class: "tree state" });
  state.append(tree(side.state, "", differs));
  box.append(el("details", { open: "" }, el("summary", { text: "state" }), state));
  return box;
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  }
  return value;
}

async function show(i) {
  const data = await api(`/api/step/${i}`);
  current = i;
  document.getElementById("step-index").textContent = String(i);
  document.getElementById("step-count").textContent = String(data.count);
  document.querySelectorAll("#steps li").forEach((li) => li.classList.toggle("current", Number(li.dataset.step) === i));
  const differs = new Set(data.differs || []);
  const only = data.legal_only || { left: [], right: [] };
  const sides = document.getElementById("sides");
  sides.replaceChildren(sideView(data.left, differs, new Set(only.left)));
  if (data.right) sides.append(sideView(data.right, differs, new Set(only.right)));
  const summary = document.getElementById("differs-summary");
  summary.replaceChildren();
  if (data.right) {
    // A side that refused a step (or an implementation that stopped) has no state to agree with.
    const stateless = [data.left, data.right].find((side) => !("state" in side));
    const fields = stateless
      ? `${stateless.label} has no state here: ${stateless.refused ? "it refused a step" : "it stopped"} (below)`
      : differs.size
        ? `${differs.size} state field(s) differ (marked): ${[...differs].slice(0, 12).join(", ")}`
        : "the two states agree";
    const legal = only.left.length + only.right.length
      ? `; legal on one side only (highlighted): ${only.left.length} on the left, ${only.right.length} on the right`
      : "";
    summary.append(el("p", { text: fields + legal }));
  }
  document.getElementById("back").disabled = i === 0;
  document.getElementById("forward").disabled = i >= data.count;
}

async function load(at) {
  trace = await api("/api/trace");
  document.title = `rulecraft explore: ${trace.title}`;
  document.getElementById("title").textContent = `${trace.title}: ${trace.kind}`;
  const examples = trace.examples || {};
  document.getElementById("heading").replaceChildren(...withExampleLinks(trace.heading, examples));
  document.getElementById("notes").replaceChildren(
    ...trace.notes.map((n) => el("li", {}, ...withExampleLinks(n, examples))));
  const rules = document.getElementById("trace-rules");
  rules.replaceChildren();
  if (trace.rules.length) rules.append("rules involved: ", rulesLine(trace.rules));
  const reported = document.getElementById("reported");
  reported.replaceChildren();
  if (trace.reported.length) {
    const table = el("table", { id: "reported-table" },
      el("tr", {}, el("th", { text: "field" }), ...trace.labels.map((l) => el("th", { text: l }))));
    for (const row of trace.reported) {
      table.append(el("tr", {}, el("td", { text: row.field }), el("td", { text: JSON.stringify(row.left) }),
        el("td", { text: JSON.stringify(row.right) })));
    }
    reported.append(el("p", { text: "what the source reports differs at its last step:" }), table);
  }
  const list = document.getElementById("steps");
  const start = el("li", { text: "the start" });
  start.dataset.step = "0";
  list.replaceChildren(start);
  for (const step of trace.steps) {
    const li = el("li", { text: step.text, title: JSON.stringify(step.action) });
    if (step.right_text) li.append(el("div", { class: "right-text", text: `${trace.labels[1]}: ${step.right_text}` }));
    li.dataset.step = String(step.index);
    if (trace.refused[String(step.index)]) li.classList.add("refused");
    list.append(li);
  }
  await show(Math.min(at, trace.count));
}

async function tryAction() {
  const out = document.getElementById("try-result");
  out.replaceChildren();
  let action;
  try {
    action = JSON.parse(document.getElementById("try-action").value);
  } catch (err) {
    out.append(el("p", { class: "refusal", text: "not JSON: " + err.message }));
    return;
  }
  try {
    const reply = await api("/api/try", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ step: current, action }) });
    if (reply.legal) {
      await load(reply.step);
      out.append(el("p", { class: "ok", text: `played: ${reply.text} (now step ${reply.step})` }));
    } else {
      out.append(el("p", { class: "refusal", text: `illegal: ${reply.text}` }));
      const list = el("ul", { class: "refusals" });
      for (const r of reply.rejections) {
        list.append(el("li", { class: "refusal" }, ruleLink({ id: r.rule, page: r.page, statement: r.statement }),
          ` (p.${r.page || "?"}) — ${r.reason}`));
      }
      out.append(list);
    }
  } catch (err) {
    out.append(el("p", { class: "refusal", text: err.message }));
  }
}

// What else the server may open: a fixed list it made when it started (a seeded game, the printed
// examples, the command line's source); the page names one by its ID, never by a path.
let sources = [];

function seedParamsFor(id) {
  const source = sources.find((s) => s.id === id);
  const params = document.getElementById("seed-params");
  params.hidden = !source || source.kind !== "seed";
  if (source && source.kind === "seed") {
    const players = document.getElementById("source-players");
    players.min = String(source.params.players.min);
    players.max = String(source.params.players.max);
    if (!players.value) players.value = String(source.params.players.default);
  }
}

async function loadSources() {
  const data = await api("/api/sources");
  sources = data.sources;
  const select = document.getElementById("source");
  select.replaceChildren(...sources.map((s) => el("option", { value: s.id, text: s.label })));
  select.value = data.current;
  seedParamsFor(select.value);
}

async function openSource(event) {
  event.preventDefault();
  const error = document.getElementById("source-error");
  error.textContent = "";
  const id = document.getElementById("source").value;
  const body = { source: id };
  const source = sources.find((s) => s.id === id);
  if (source && source.kind === "seed") {
    body.seed = Number(document.getElementById("source-seed").value);
    body.players = Number(document.getElementById("source-players").value);
  }
  try {
    await api("/api/open", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    document.getElementById("try-result").replaceChildren();
    await load(0);
  } catch (err) {
    error.textContent = err.message;
  }
}

document.getElementById("source").addEventListener("change", (event) => seedParamsFor(event.target.value));
document.getElementById("source-form").addEventListener("submit", openSource);
document.getElementById("back").addEventListener("click", () => current > 0 && show(current - 1));
document.getElementById("forward").addEventListener("click", () => trace && current < trace.count && show(current + 1));
document.getElementById("steps").addEventListener("click", (event) => {
  const li = event.target.closest("li");
  if (li) show(Number(li.dataset.step));
});
document.getElementById("try-button").addEventListener("click", tryAction);
// Side by side, a board is drawn at less than half its size; one above the other it takes the width.
document.getElementById("stacked").addEventListener("change", (event) => {
  document.getElementById("sides").classList.toggle("stacked", event.target.checked);
});
document.addEventListener("keydown", (event) => {
  const typing = [HTMLTextAreaElement, HTMLInputElement, HTMLSelectElement].some((kind) => event.target instanceof kind);
  if (typing) return;
  if (event.key === "ArrowLeft" && current > 0) show(current - 1);
  if (event.key === "ArrowRight" && trace && current < trace.count) show(current + 1);
});
// ?open=ID (a report's link, report:NAME): open that source first, when the server's list has it;
// an ID not on the list is said in one line, and what is open stays.
async function openWanted(id) {
  await loadSources();
  if (id === null) return;
  const error = document.getElementById("source-error");
  if (!sources.some((s) => s.id === id)) {
    error.textContent = `no source "${id}" in this explorer's list: start it with --reports on the report's folder` +
      " (the command at the top of the report)";
    return;
  }
  try {
    await api("/api/open", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ source: id }) });
    document.getElementById("source").value = id;
    seedParamsFor(id);
  } catch (err) {
    error.textContent = err.message;
  }
}

const query = new URLSearchParams(location.search);
const wanted = Number(query.get("step") || 0);
openWanted(query.get("open"))
  .catch((err) => {
    document.getElementById("source-error").textContent = "could not list the sources: " + err.message;
  })
  .then(() => load(Number.isFinite(wanted) ? wanted : 0))
  .catch((err) => {
    document.getElementById("heading").textContent = "could not load: " + err.message;
  });
