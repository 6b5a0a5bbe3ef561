package onectest

import (
	"io"
	"net"
	"net/http"
)

// Ready-made failures for Server.Fail.

// Respond answers every request with status, content type and body, e.g. an nginx 502 page.
func Respond(status int, contentType, body string) func(http.ResponseWriter, *http.Request) bool {
	return func(w http.ResponseWriter, _ *http.Request) bool {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
		return true
	}
}

// TOONData answers like a proxy left at its default RESPONSE_FORMAT=toon: the envelope is
// JSON, but data is a TOON string.
func TOONData(w http.ResponseWriter, r *http.Request) bool {
	return Respond(http.StatusOK, "application/json",
		`{"success":true,"data":"[1]{Код,Наименование}:\n  \"51\",Расчетные счета","count":1}`)(w, r)
}

// Hang never answers: it holds the request until the client gives up (or the server stops).
func Hang(_ http.ResponseWriter, r *http.Request) bool {
	// The server notices a client hanging up only once the body has been read.
	_, _ = io.Copy(io.Discard, r.Body)
	<-r.Context().Done()
	return true
}

// ResetMidBody sends the status line, the headers and the start of a JSON body, then resets
// the connection (TCP RST), as a proxy or a load balancer dying mid-answer does.
func ResetMidBody(w http.ResponseWriter, _ *http.Request) bool {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "hijacking unsupported", http.StatusInternalServerError)
		return true
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return true
	}
	_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n" +
		`{"success":true,"data":[{"Счет":"62.01","СуммаОстатокДт":1`)
	_ = buf.Flush()
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0) // close with RST, not FIN
	}
	_ = conn.Close()
	return true
}
