/* Redirect pages (a permalink -/r/<id>/, a moved record, a moved listing):
 * open the target with the reader's fragment and query. A meta refresh drops
 * the fragment, so #L84, #L24-L28 or #solutions would land at the top of the
 * page; here the page's own script keeps them. The meta refresh sits in
 * <noscript>, so it only runs where this script cannot, and the two never race. */
(function () {
  "use strict";
  var script = document.currentScript;
  var target = script && script.getAttribute("data-target");
  if (!target) return;
  var url = new URL(target, window.location.href);
  if (!url.search) url.search = window.location.search;
  url.hash = window.location.hash;
  window.location.replace(url.href);
}());
