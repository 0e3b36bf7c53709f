"""A call to the referee service as both transports serve it, the gRPC server (`referee.server`)
and the HTTP gateway (`referee.web`): the service's methods on the wire (`wire`), the chain of
interceptors every call passes (`chain`), the quotas it is charged (`limits`), the headers it is
read from (`metadata`), and how an error becomes a status (`status`)."""
