"""The rules of backgammon match and money play, in pure Python (no Django imports).

Each module cites the section of ``docs/rules.md`` (and its sources) that it implements.
"""
