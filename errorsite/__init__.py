"""errorsite: turns a dataset of error records into a static, searchable website."""
__version__ = "0.1.0"
