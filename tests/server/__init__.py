"""Play-server tests over real sockets (a package, so its helper modules stay private)."""
