// The tool browser's search box, server filter and result list (an anywidget ES module).
//
// Python puts list_core.js before this text (`element`, `listProtocol`: one `request`
// {query, server, seq} in flight at a time, answered by one `answer` {seq, query, server,
// rows, count, total, note}); this part draws the tool rows and the server filter, and moves
// through the rows with the arrow keys.

const BADGE_CLASS = {
  "read-only": "wb-badge-read-only",
  destructive: "wb-badge-destructive",
  idempotent: "wb-badge-idempotent",
  "open-world": "wb-badge-open-world",
};

// A server's icon is drawn only as a small data: image (workbench/tools/icons.py's rule;
// the kernel sends no other, checked again here): an https URL is never fetched, since that
// would tell a third party who is looking.
const DRAWABLE_ICON =
  /^data:image\/(png|jpe?g|gif|webp|svg\+xml)(;[A-Za-z0-9.+-]+=[A-Za-z0-9.+-]+)*(;base64)?,[A-Za-z0-9!$&()*+,\-./:;=?@_~%]*$/i;

function iconElement(icon) {
  if (!icon || typeof icon !== "object") return null;
  const light = document.body.dataset.jpThemeLight;
  const themed = light === undefined ? undefined : icon[light === "true" ? "light" : "dark"];
  const src = themed ?? icon.any;
  if (typeof src !== "string" || src.length > 65536 || !DRAWABLE_ICON.test(src)) return null;
  const img = element("img", "wb-tl-icon");
  img.alt = "";
  img.referrerPolicy = "no-referrer";
  img.src = src;
  return img;
}

function rowElement(row) {
  const item = element("li", "wb-list-row wb-tl-row");
  item.dataset.id = row.id;
  item.setAttribute("role", "option");
  item.tabIndex = -1;
  const head = element("div", "wb-list-head wb-tl-head");
  const icon = iconElement(row.icon);
  if (icon) head.append(icon);
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
  if (row.description) item.append(element("div", "wb-list-desc wb-tl-desc", row.description));
  return item;
}

function render({ model, el }) {
  el.classList.add("wb-list", "wb-tool-list");
  const bar = element("div", "wb-tl-bar");
  const input = element("input", "wb-list-query wb-tl-query");
  input.type = "search";
  input.placeholder = "Search tools…";
  input.setAttribute("aria-label", "Search tools");
  input.spellcheck = false;
  const maxQuery = model.get("max_query") || 1000;
  input.maxLength = maxQuery;
  const filter = element("select", "wb-tl-server");
  filter.setAttribute("aria-label", "Server");
  bar.append(input, filter);
  const status = element("div", "wb-list-status wb-tl-status");
  const list = element("ul", "wb-list-rows wb-tl-rows");
  list.setAttribute("role", "listbox");
  el.append(bar, status, list);

  const { request, markSelected, renderAnswer, open } = listProtocol({
    model,
    input,
    status,
    list,
    maxQuery,
    rowElement,
    fields: () => ({ server: filter.value }),
    answerKeys: ["server"],
  });

  function renderServers() {
    const servers = model.get("servers") || [];
    const chosen = (model.get("request") || {}).server || filter.value || "";
    filter.replaceChildren(new Option("all servers", ""));
    for (const name of servers) filter.append(new Option(name, name));
    filter.value = servers.includes(chosen) ? chosen : "";
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
