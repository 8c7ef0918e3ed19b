"""The referee bot framework: nothing here knows a particular game."""
