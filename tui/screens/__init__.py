"""The screens of the application."""
