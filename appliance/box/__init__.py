"""The running box: configuration, the store, the appliance, its command line, the demo and the doctor."""
