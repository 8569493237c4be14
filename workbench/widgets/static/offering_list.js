// The Resources and Prompts tabs' search box and list (an anywidget ES module).
//
// Python puts list_core.js before this text (`element`, `listProtocol`: one `request`
// {query, seq} in flight at a time, answered by one `answer` {seq, query, rows, note}, as
// the tool list does). When the kernel bumps `stale` (a server announced a change, on a
// thread that may not wait for servers), the page asks again, and the kernel reloads while
// answering on its main thread.

function rowElement(row) {
  const item = element("li", "wb-list-row wb-ol-row");
  item.dataset.id = row.id;
  item.dataset.label = row.label;
  item.setAttribute("role", "option");
  item.tabIndex = -1;
  const head = element("div", "wb-list-head wb-ol-head");
  head.append(element("span", "wb-ol-label", row.label));
  if (row.title) head.append(element("span", "wb-ol-title", row.title));
  head.append(element("span", "wb-ol-kind", row.kind));
  head.append(element("span", "wb-ol-server", row.server));
  item.append(head);
  if (row.description) item.append(element("div", "wb-list-desc wb-ol-desc", row.description));
  return item;
}

function render({ model, el }) {
  el.classList.add("wb-list", "wb-offering-list");
  const input = element("input", "wb-list-query wb-ol-query");
  input.type = "search";
  input.placeholder = model.get("placeholder") || "Search…";
  input.setAttribute("aria-label", input.placeholder);
  input.spellcheck = false;
  const maxQuery = model.get("max_query") || 1000;
  input.maxLength = maxQuery;
  const status = element("div", "wb-list-status wb-ol-status");
  const list = element("ul", "wb-list-rows wb-ol-rows");
  list.setAttribute("role", "listbox");
  el.append(input, status, list);

  // reopen: a second click on the selected row opens it again (reads the resource again).
  const { request, markSelected, renderAnswer, open } = listProtocol({
    model,
    input,
    status,
    list,
    maxQuery,
    rowElement,
    reopen: true,
  });

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
