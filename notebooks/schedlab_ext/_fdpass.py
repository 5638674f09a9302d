"""The engine's child for schedlab_ext.env: hands its standard input and
output (the engine's pipes) to the environment over a Unix socket, so the
environment reads and writes them directly, then waits until the
environment closes the socket and exits 0."""
import socket
import sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
socket.send_fds(s, [b"x"], [0, 1])
s.recv(1)
