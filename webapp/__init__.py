"""The Hidato command line and web application."""
