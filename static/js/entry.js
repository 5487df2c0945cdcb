/* Score entry, progressively enhanced: show only the questions the chosen ending asks
   (a dropped double asks for the cube offered; a played or resigned game for the cube,
   its owner and the level), and say live what the game is worth. Without this script
   every question shows and the server derives the same thing. */
(function () {
  "use strict";
  // gettext/interpolate come from /jsi18n/ (base.html); English if it failed to load.
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\(\w+\)s/g, function (m) { return String(obj[m.slice(2, -2)]); });
  };
  var LEVELS = { single: 1, gammon: 2, backgammon: 3 };

  function checked(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : null;
  }

  function points(n) {
    return interpolate(ngettext("%(n)s point", "%(n)s points", n), { n: n }, true);
  }

  // The level's name as the visitor reads it (the input's value stays English).
  function levelName(level) {
    return { single: gettext("single"), gammon: gettext("gammon"),
      backgammon: gettext("backgammon") }[level] || level;
  }

  function setUp(form) {
    var namesNode = document.getElementById("winner-names");
    var names = namesNode ? JSON.parse(namesNode.textContent) : {};
    var hint = form.querySelector("#points-hint");
    var sets = {};
    form.querySelectorAll("fieldset[data-field]").forEach(function (set) {
      sets[set.getAttribute("data-field")] = set;
    });

    function show(name, visible) {
      if (sets[name]) sets[name].hidden = !visible;
    }

    function update() {
      var dropped = checked(form, "ending") === "dropped";
      show("cube_offered", dropped);
      show("level", !dropped);
      show("cube", !dropped);
      show("cube_owner", !dropped);
      if (!hint) return;
      var winner = checked(form, "winner");
      if (!winner) {
        hint.textContent = gettext("Choose who won.");
        return;
      }
      var ids = Object.keys(names);
      var loser = ids[0] === winner ? ids[1] : ids[0];
      if (dropped) {
        var offered = parseInt(checked(form, "cube_offered"), 10);
        if (!offered) {
          hint.textContent = interpolate(gettext("Which cube was offered? %(winner)s doubled."),
            { winner: names[winner] }, true);
          return;
        }
        hint.textContent = interpolate(
          gettext("Cube offered: %(offered)s → %(loser)s dropped, %(winner)s wins %(points)s."),
          { offered: offered, loser: names[loser], winner: names[winner],
            points: points(offered / 2) }, true);
        return;
      }
      var cube = parseInt(checked(form, "cube") || "1", 10);
      var level = checked(form, "level") || "single";
      var worth = cube * (LEVELS[level] || 1);
      var values = { winner: names[winner], points: points(worth), cube: cube,
        level: levelName(level) };
      hint.textContent = interpolate(cube > 1
        ? gettext("%(winner)s wins %(points)s (cube %(cube)s × %(level)s).")
        : gettext("%(winner)s wins %(points)s (%(level)s)."), values, true);
    }

    form.addEventListener("change", update);
    update();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-game-entry]").forEach(setUp);
  });
})();
