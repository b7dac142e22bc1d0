"""Processes that think for bots away from the interface and the table server (see bot_process)."""
