"""Generated gRPC code for `proto/referee/`: run `make proto` (`make test` and `make run` do).

The modules below this package (`referee.api.v1.referee_pb2`, `..._pb2_grpc`) are build output,
not source: they are not committed and are regenerated whenever the proto changes.
"""
