/* Filter boxes (macros.html's filter_box): as one types, the items of the
 * box's target show only if their text holds what was typed (any case); a
 * group (`[data-filter-group]`) whose items are all hidden hides too, and a
 * group whose heading matches shows all its items. Text is only read. */
(function () {
  "use strict";

  function fold(text) { return text.toLocaleLowerCase().replace(/\s+/g, " "); }

  function filterBox(input) {
    var target = document.getElementById(input.getAttribute("data-filter"));
    if (!target) return;
    var status = input.parentNode.querySelector(".filter-status");
    var items = Array.prototype.map.call(target.querySelectorAll("li"), function (li) {
      var group = li.closest("[data-filter-group]");
      var heading = group && group.querySelector("h2, h3");
      var text = li.textContent;  // less its counts: "12" finds no tag by its number of records
      Array.prototype.forEach.call(li.querySelectorAll(".count"), function (count) { text = text.replace(count.textContent, ""); });
      return { element: li, group: group, text: fold(text), heading: heading ? fold(heading.textContent) : "" };
    });
    var groups = Array.prototype.slice.call(target.querySelectorAll("[data-filter-group]"));
    input.parentNode.hidden = false;

    function apply() {
      var wanted = fold(input.value.trim());
      var shown = 0;
      items.forEach(function (item) {
        var match = !wanted || item.text.indexOf(wanted) >= 0 || item.heading.indexOf(wanted) >= 0;
        item.element.hidden = !match;
        if (match) shown++;
      });
      groups.forEach(function (group) {
        var heading = group.querySelector("h2, h3");
        group.hidden = !!wanted && !group.querySelector("li:not([hidden])") &&
          !(heading && fold(heading.textContent).indexOf(wanted) >= 0);
      });
      status.textContent = wanted ? shown + " of " + items.length + " shown" : "";
    }
    input.addEventListener("input", apply);
    if (input.value) apply();  // a value the browser kept on going back
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("input[data-filter]"), filterBox);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
