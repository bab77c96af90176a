/* Results you can trust: split a result list (as ErrorSearch.search returns
 * it, best first) into the strong matches and the weaker ones, which the page
 * folds away. A result is weaker when its score is far below the best one's:
 * it shares only a word or two that many messages have ("error", "input").
 * Pure: no DOM, no engine; the browser test calls it directly. */
(function (global) {
  "use strict";
  var RATIO = 0.25;  // a strong result scores at least a quarter of the best

  function cutoff(results, ratio) {
    ratio = ratio === undefined ? RATIO : ratio;
    if (!results.length) return { strong: [], weak: [] };
    var best = results[0].score;
    var strong = [], weak = [];
    results.forEach(function (result, i) {
      (i === 0 || !(best > 0) || result.score >= best * ratio ? strong : weak).push(result);
    });
    return { strong: strong, weak: weak };
  }

  global.searchCutoff = cutoff;
  global.searchCutoff.RATIO = RATIO;
})(window);
