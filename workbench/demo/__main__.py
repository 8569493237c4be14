"""``python -m workbench.demo``: the demo server over stdio, to try it as a child process."""

from workbench.demo.server import build_demo_server

if __name__ == "__main__":
    # stdout carries the protocol: no banner, and FastMCP's own logs only from WARNING up.
    build_demo_server().run("stdio", show_banner=False, log_level="WARNING")
