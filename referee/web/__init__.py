"""The referee over HTTP/JSON (`referee serve --http PORT`): the routes of the proto's
`google.api.http` options, served through the gRPC server's own handlers, and a web page to watch
a table and step through a record (`static/`). docs/web.md tells how to use them."""
