/* Score entry, progressively enhanced: show only the questions the chosen ending asks
   (a dropped double asks for the cube offered; a played or resigned game for the cube,
   its owner and the level), and say live what the game is worth. Without this script
   every question shows and the server derives the same thing. */
(function () {
  "use strict";
  var LEVELS = { single: 1, gammon: 2, backgammon: 3 };

  function checked(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : null;
  }

  function points(n) {
    return n + (n === 1 ? " point" : " points");
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
        hint.textContent = "Choose who won.";
        return;
      }
      var ids = Object.keys(names);
      var loser = ids[0] === winner ? ids[1] : ids[0];
      if (dropped) {
        var offered = parseInt(checked(form, "cube_offered"), 10);
        if (!offered) {
          hint.textContent = "Which cube was offered? " + names[winner] + " doubled.";
          return;
        }
        hint.textContent = "Cube offered: " + offered + " → " + names[loser] + " dropped, " +
          names[winner] + " wins " + points(offered / 2) + ".";
        return;
      }
      var cube = parseInt(checked(form, "cube") || "1", 10);
      var level = checked(form, "level") || "single";
      var worth = cube * (LEVELS[level] || 1);
      hint.textContent = names[winner] + " wins " + points(worth) +
        (cube > 1 ? " (cube " + cube + " × " + level + ")." : " (" + level + ").");
    }

    form.addEventListener("change", update);
    update();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-game-entry]").forEach(setUp);
  });
})();
