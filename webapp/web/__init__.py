"""The web layer: the Flask app (``app.create_app``), its settings, security and limits,
the ticket runner for slow work, and one blueprint per part of the site."""
