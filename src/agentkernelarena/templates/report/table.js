// Sorting, filtering and opening trials; no libraries, nothing fetched.
(function () {
  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) return "";
    var key = cell.getAttribute("data-sort");
    if (key === null) key = cell.textContent.trim();
    var number = parseFloat(key);
    return isNaN(number) || !/^-?[0-9.]/.test(key) ? key.toLowerCase() : number;
  }
  function compare(a, b) {
    if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0;
    return typeof a === "number" ? -1 : 1;  // numbers before text
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(heads, function (th, index) {
      th.addEventListener("click", function () {
        var ascending = !th.classList.contains("asc");
        Array.prototype.forEach.call(heads, function (h) { h.classList.remove("asc", "desc"); });
        th.classList.add(ascending ? "asc" : "desc");
        var groups = Array.prototype.slice.call(table.tBodies);
        var single = groups.length === 1;
        var items = single ? Array.prototype.slice.call(groups[0].rows) : groups;
        items.sort(function (x, y) {
          var rx = single ? x : x.rows[0], ry = single ? y : y.rows[0];
          var vx = cellValue(rx, index), vy = cellValue(ry, index);
          var ex = vx === "" || vx === "-", ey = vy === "" || vy === "-";
          if (ex || ey) return ex === ey ? 0 : ex ? 1 : -1;  // no value: last, either way
          var order = compare(vx, vy);
          return ascending ? order : -order;
        });
        var parent = single ? groups[0] : table;
        items.forEach(function (item) { parent.appendChild(item); });
      });
    });
  });
  document.querySelectorAll("tr.main").forEach(function (row) {
    row.addEventListener("click", function () {
      var detail = row.parentNode.querySelector("tr.detail");
      if (detail) detail.hidden = !detail.hidden;
    });
  });
  var text = document.getElementById("filter-text");
  var selects = document.querySelectorAll("select.filter");
  function applyFilter() {
    var needle = text ? text.value.toLowerCase() : "";
    document.querySelectorAll("tbody.trial").forEach(function (group) {
      var show = !needle || group.rows[0].textContent.toLowerCase().indexOf(needle) >= 0;
      selects.forEach(function (select) {
        if (select.value && group.getAttribute("data-" + select.name) !== select.value) show = false;
      });
      group.hidden = !show;
    });
    var shown = document.querySelectorAll("tbody.trial:not([hidden])").length;
    var counter = document.getElementById("filter-count");
    if (counter) counter.textContent = shown + " shown";
  }
  if (text) text.addEventListener("input", applyFilter);
  selects.forEach(function (select) { select.addEventListener("change", applyFilter); });
  var all = document.getElementById("open-all");
  if (all) all.addEventListener("click", function () {
    var rows = document.querySelectorAll("tbody.trial:not([hidden]) tr.detail");
    var open = Array.prototype.some.call(rows, function (r) { return r.hidden; });
    rows.forEach(function (r) { r.hidden = !open; });
  });
})();
