package io.riptide.cli.bench;

/** One HTTP/1.1 response as read off the wire: the status, the raw header block and the (de-chunked) body. */
public record HttpResponse(int status, String head, byte[] body) {
}
