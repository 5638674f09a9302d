"""Ready schedulers over the protocol: fcfs and easy (as the built-ins)."""
