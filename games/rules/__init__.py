"""The rules of backgammon match and money play, in pure Python (no Django imports).

Each module cites the source text in ``../shared/rules/`` that it implements.
"""
