// errdex static site search (errdex site): filters search-index.json in the
// browser. The pages work without it (index.html lists every error); this only
// adds a search box. No inline script: the pages' CSP allows 'self' scripts only.
"use strict";
(function () {
  const box = document.getElementById("site-search");
  const input = document.getElementById("sq");
  const list = document.getElementById("site-results");
  if (!box || !input || !list) return;
  box.hidden = false;
  let index = null;
  const words = (s) => s.toLowerCase().split(/[^0-9a-z\u0080-\uffff]+/).filter(Boolean);
  function render(q) {
    list.textContent = "";
    const ws = words(q);
    if (!index || ws.length === 0) return;
    let n = 0;
    for (const e of index) {
      const hay = words(e.m + " " + e.c + " " + e.s).join(" ");
      if (!ws.every((w) => hay.includes(w))) continue;
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = input.dataset.root + e.u;
      const cls = document.createElement("span");
      cls.className = "cls";
      cls.textContent = e.c;
      a.append(cls, " " + e.m);
      const where = document.createElement("div");
      where.className = "muted";
      where.textContent = e.r + " · " + e.f;
      li.append(a, where);
      list.append(li);
      if (++n >= 50) break;
    }
  }
  input.addEventListener("input", () => {
    if (index) return render(input.value);
    fetch(input.dataset.index).then((r) => r.json()).then((j) => { index = j; render(input.value); })
      .catch(() => { box.hidden = true; });
  });
})();
