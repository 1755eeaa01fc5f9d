"""Rules engine and CPU players for Classic Junqi, Blind Junqi and Gunjin Shogi.

Pure standard-library Python: the same code runs in CPython and, inside the page,
in Pyodide.
"""

__version__ = "0.1.0"
