// The timeline slider: show the transaction number while dragging, replay when released.
// Everything else on the dashboard is plain HTML forms and links.
document.addEventListener("DOMContentLoaded", function () {
  var slider = document.getElementById("as_of");
  var label = document.getElementById("as_of_label");
  if (!slider) { return; }
  slider.addEventListener("input", function () { label.textContent = slider.value; });
  slider.addEventListener("change", function () { document.getElementById("timeline").submit(); });
});
