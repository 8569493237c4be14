// The tool browser's search box, server filter and result list (an anywidget ES module).
//
// Each search is one `request` {query, server, seq} to the kernel, answered by one `answer`
// {seq, query, server, rows, count, total, note}. At most one request is in flight: keys typed
// while the kernel works are folded into the next request, so the first keystroke is answered
// at once and fast typing never queues stale searches. The box takes at most `max_query`
// characters (a paste is cut there): all that search reads, and all that crosses the wire.

const BADGE_CLASS = {
  "read-only": "wb-badge-read-only",
  destructive: "wb-badge-destructive",
  idempotent: "wb-badge-idempotent",
  "open-world": "wb-badge-open-world",
};

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function rowElement(row) {
  const item = element("li", "wb-tl-row");
  item.dataset.id = row.id;
  item.setAttribute("role", "option");
  item.tabIndex = -1;
  const head = element("div", "wb-tl-head");
  head.append(element("span", "wb-tl-id", row.id));
  if (row.title) head.append(element("span", "wb-tl-title", row.title));
  if ((row.badges || []).length) {
    // One unit: the badges wrap together, never one by one under the title.
    const badges = element("span", "wb-tl-badges");
    for (const badge of row.badges) {
      badges.append(element("span", `wb-badge ${BADGE_CLASS[badge] || ""}`, badge));
    }
    head.append(badges);
  }
  item.append(head);
  if (row.description) item.append(element("div", "wb-tl-desc", row.description));
  return item;
}

function render({ model, el }) {
  el.classList.add("wb-tool-list");
  const bar = element("div", "wb-tl-bar");
  const input = element("input", "wb-tl-query");
  input.type = "search";
  input.placeholder = "Search tools…";
  input.setAttribute("aria-label", "Search tools");
  input.spellcheck = false;
  const maxQuery = model.get("max_query") || 1000;
  input.maxLength = maxQuery;
  const filter = element("select", "wb-tl-server");
  filter.setAttribute("aria-label", "Server");
  bar.append(input, filter);
  const status = element("div", "wb-tl-status");
  const list = element("ul", "wb-tl-rows");
  list.setAttribute("role", "listbox");
  el.append(bar, status, list);

  const first = model.get("request") || {};
  input.value = (first.query || "").slice(0, maxQuery);
  let seq = first.seq || 0;
  let inFlight = false;
  let pending = false;

  function send() {
    seq += 1;
    inFlight = true;
    pending = false;
    const query = input.value.slice(0, maxQuery);
    model.set("request", { query, server: filter.value, seq });
    model.save_changes();
  }

  function request() {
    if (inFlight) pending = true;
    else send();
  }

  function renderServers() {
    const servers = model.get("servers") || [];
    const chosen = (model.get("request") || {}).server || filter.value || "";
    filter.replaceChildren(new Option("all servers", ""));
    for (const name of servers) filter.append(new Option(name, name));
    filter.value = servers.includes(chosen) ? chosen : "";
  }

  function markSelected() {
    const selected = model.get("selected");
    for (const item of list.children) {
      const on = item.dataset.id === selected;
      item.classList.toggle("wb-selected", on);
      item.setAttribute("aria-selected", on ? "true" : "false");
    }
  }

  function renderAnswer() {
    const answer = model.get("answer") || {};
    if ((answer.seq || 0) >= seq) inFlight = false;
    const fragment = document.createDocumentFragment();
    for (const row of answer.rows || []) fragment.append(rowElement(row));
    list.replaceChildren(fragment);
    status.textContent = answer.note || "";
    list.dataset.query = answer.query || "";
    list.dataset.server = answer.server || "";
    list.dataset.seq = String(answer.seq || 0);
    markSelected();
    if (pending && !inFlight) send();
  }

  function open(item) {
    if (!item) return;
    model.set("selected", item.dataset.id);
    model.save_changes();
  }

  function move(step) {
    const items = [...list.children];
    if (!items.length) return;
    const at = items.findIndex((item) => item.classList.contains("wb-focus"));
    const next = items[Math.min(Math.max(at + step, 0), items.length - 1)];
    for (const item of items) item.classList.toggle("wb-focus", item === next);
    next.scrollIntoView({ block: "nearest" });
  }

  list.addEventListener("click", (event) => open(event.target.closest(".wb-tl-row")));
  input.addEventListener("input", request);
  filter.addEventListener("change", request);
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      move(event.key === "ArrowDown" ? 1 : -1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      open(list.querySelector(".wb-focus") || list.firstElementChild);
    }
  });

  model.on("change:answer", renderAnswer);
  model.on("change:servers", renderServers);
  model.on("change:selected", markSelected);
  renderServers();
  renderAnswer();
  return () => {
    model.off("change:answer", renderAnswer);
    model.off("change:servers", renderServers);
    model.off("change:selected", markSelected);
  };
}

export default { render };
