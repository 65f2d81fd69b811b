/**
 * /status.js, the status page's only script (CSP script-src 'self'): copy
 * buttons for the feed URLs, relative times kept current, and a reload every
 * minute unless a search is shown or typed. The page works without it.
 */
export const STATUS_SCRIPT = `"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest ? event.target.closest("button.copy") : null;
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  if (!source) return;
  var text = source.textContent;
  var done = function () { var label = button.textContent; button.textContent = "\\u2713"; setTimeout(function () { button.textContent = label; }, 1500); };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () {});
  else { var range = document.createRange(); range.selectNodeContents(source); var selection = getSelection(); selection.removeAllRanges(); selection.addRange(range); }
});
(function () {
  var marker = document.querySelector("[data-refresh]");
  var seconds = marker ? Number(marker.getAttribute("data-refresh")) : 0;
  if (!(seconds > 0)) return;
  setInterval(function () {
    var input = document.getElementById("q");
    if (input && (input.value !== "" || document.activeElement === input)) return;
    location.reload();
  }, seconds * 1000);
})();
`;
