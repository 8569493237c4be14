// What the two anywidget lists share (tool_list.js, offering_list.js): the element helper and
// the search protocol. Not loaded on its own: anywidget imports a widget's `_esm` text from a
// blob: URL, where a relative import cannot resolve, so Python (widgets/static_text.py) puts
// this text before each list's own part, which calls `element` and `listProtocol`.
//
// Each search is one `request` {query, ...fields(), seq} to the kernel, answered by one
// `answer` {seq, query, rows, note, ...}. At most one request is in flight: keys typed while
// the kernel works are folded into the next request, so the first keystroke is answered at
// once and fast typing never queues stale searches. The box is cut at `maxQuery` characters
// (a paste too): all that search reads, and all that crosses the wire.
//
// Shared classes (list_core.css): wb-list, wb-list-query, wb-list-status, wb-list-rows,
// wb-list-row (wb-focus: the arrow keys' row; wb-selected: the row clicked), wb-list-head,
// wb-list-desc.

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

// The request/answer protocol over `input` (the box), `status` and `list` (the rows):
// `rowElement(row)` draws one answer row, `fields()` adds to each request, `answerKeys` are
// answer fields copied to the list's dataset (with query and seq), and `reopen` makes a click
// on the selected row select it again (the kernel opens it again).
function listProtocol({
  model,
  input,
  status,
  list,
  maxQuery,
  rowElement,
  fields,
  answerKeys,
  reopen,
}) {
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
    model.set("request", { query, ...(fields ? fields() : {}), seq });
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
    for (const key of answerKeys || []) list.dataset[key] = answer[key] || "";
    list.dataset.seq = String(answer.seq || 0);
    markSelected();
    if (pending && !inFlight) send();
  }

  function open(item) {
    if (!item) return;
    if (reopen) {
      if (model.get("selected") === item.dataset.id) model.set("selected", "");
      model.save_changes();
    }
    model.set("selected", item.dataset.id);
    model.save_changes();
  }

  return { send, request, markSelected, renderAnswer, open };
}
