"""A fake Discord on loopback for end-to-end tests: REST routes, the gateway, faults on demand.

``FakeDiscord`` runs in-process (``await fake.start()``) or as a script
(``python -m tests.fakediscord --port 8765``). The real bot connects to it with
``DISCORD_API_BASE=<fake.api_base>`` and ``DISCORD_GATEWAY_URL=<fake.gateway_url>``.
"""

from tests.fakediscord.server import FakeDiscord, Fault, Interaction, Message, Recorded

__all__ = ["FakeDiscord", "Fault", "Interaction", "Message", "Recorded"]
