package trace

import "io"

// asyncReader decompresses ahead in its own goroutine, so that gzip
// decoding and SWF parsing overlap on two cores.
type asyncReader struct {
	full   chan []byte // filled buffers, in order
	empty  chan []byte // buffers to refill
	errc   chan error  // the reader's final error (io.EOF at a clean end)
	buf    []byte      // the buffer being consumed
	off    int
	err    error
	done   chan struct{} // closed by Close: stop reading
	exited chan struct{} // closed by the goroutine when it returns
}

func newAsyncReader(r io.Reader) *asyncReader {
	const nbuf, size = 4, 256 << 10
	a := &asyncReader{full: make(chan []byte, nbuf), empty: make(chan []byte, nbuf), errc: make(chan error, 1),
		done: make(chan struct{}), exited: make(chan struct{})}
	for i := 0; i < nbuf; i++ {
		a.empty <- make([]byte, size)
	}
	go func() {
		defer close(a.exited)
		defer close(a.full)
		for {
			var buf []byte
			select {
			case buf = <-a.empty:
			case <-a.done:
				return
			}
			n, err := io.ReadFull(r, buf[:cap(buf)])
			if n > 0 {
				select {
				case a.full <- buf[:n]:
				case <-a.done:
					return
				}
			}
			if err == io.ErrUnexpectedEOF {
				err = io.EOF // a short final block
			}
			if err != nil {
				a.errc <- err
				return
			}
		}
	}()
	return a
}

func (a *asyncReader) Read(p []byte) (int, error) {
	for a.buf == nil || a.off == len(a.buf) {
		if a.err != nil {
			return 0, a.err
		}
		if a.buf != nil {
			a.empty <- a.buf
			a.buf = nil
		}
		buf, ok := <-a.full
		if !ok {
			a.err = <-a.errc
			return 0, a.err
		}
		a.buf, a.off = buf, 0
	}
	n := copy(p, a.buf[a.off:])
	a.off += n
	return n, nil
}

// Close stops the goroutine and waits until it no longer touches the
// underlying reader (which the caller may then close).
func (a *asyncReader) Close() {
	close(a.done)
	<-a.exited
}
