"""The tournament formats, one module each; every module here registers its format
(:func:`tournaments.formats.registry.register`) when :mod:`~tournaments.formats.registry`
loads the package."""
