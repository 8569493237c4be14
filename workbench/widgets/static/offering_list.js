// The Resources and Prompts tabs' search box and list (an anywidget ES module).
//
// As tool_list.js: each search is one `request` {query, seq}, answered by one `answer`
// {seq, query, rows, note}, at most one in flight (keys typed meanwhile are folded into the
// next request), the box cut at `max_query` characters. When the kernel bumps `stale` (a
// server announced a change, on a thread that may not wait for servers), the page asks
// again, and the kernel reloads while answering on its main thread.

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function rowElement(row) {
  const item = element("li", "wb-ol-row");
  item.dataset.id = row.id;
  item.dataset.label = row.label;
  item.setAttribute("role", "option");
  item.tabIndex = -1;
  const head = element("div", "wb-ol-head");
  head.append(element("span", "wb-ol-label", row.label));
  if (row.title) head.append(element("span", "wb-ol-title", row.title));
  head.append(element("span", "wb-ol-kind", row.kind));
  head.append(element("span", "wb-ol-server", row.server));
  item.append(head);
  if (row.description) item.append(element("div", "wb-ol-desc", row.description));
  return item;
}

function render({ model, el }) {
  el.classList.add("wb-offering-list");
  const input = element("input", "wb-ol-query");
  input.type = "search";
  input.placeholder = model.get("placeholder") || "Search…";
  input.setAttribute("aria-label", input.placeholder);
  input.spellcheck = false;
  const maxQuery = model.get("max_query") || 1000;
  input.maxLength = maxQuery;
  const status = element("div", "wb-ol-status");
  const list = element("ul", "wb-ol-rows");
  list.setAttribute("role", "listbox");
  el.append(input, status, list);

  const first = model.get("request") || {};
  input.value = (first.query || "").slice(0, maxQuery);
  let seq = first.seq || 0;
  let inFlight = false;
  let pending = false;

  function send() {
    seq += 1;
    inFlight = true;
    pending = false;
    model.set("request", { query: input.value.slice(0, maxQuery), seq });
    model.save_changes();
  }

  function request() {
    if (inFlight) pending = true;
    else send();
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
    list.dataset.seq = String(answer.seq || 0);
    markSelected();
    if (pending && !inFlight) send();
  }

  function open(item) {
    if (!item) return;
    // A second click on the selected row opens it again (reads the resource again).
    if (model.get("selected") === item.dataset.id) model.set("selected", "");
    model.save_changes();
    model.set("selected", item.dataset.id);
    model.save_changes();
  }

  list.addEventListener("click", (event) => open(event.target.closest(".wb-ol-row")));
  input.addEventListener("input", request);
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      open(list.firstElementChild);
    }
  });

  model.on("change:answer", renderAnswer);
  model.on("change:selected", markSelected);
  model.on("change:stale", request);
  renderAnswer();
  return () => {
    model.off("change:answer", renderAnswer);
    model.off("change:selected", markSelected);
    model.off("change:stale", request);
  };
}

export default { render };
