"""Generated splendor.v1 protobuf and gRPC stubs."""
