//! One TCP connection to a DXP peer: a reader thread that turns bytes into [`Event`]s, and a
//! writer that sends one message per write, never two within [`PAUSE`] of each other.
//!
//! The pause exists for pydraughts, which takes whatever one `recv` returns as one message:
//! a GAMEACC followed at once by a MOVE would reach it as one garbled message. With Nagle's
//! algorithm off and the pause, every message travels alone.

use super::codec::{self, Frame, Framer, Message};
use crate::engine::Done;
use crate::error::Result;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Least time between two messages kondavo sends.
pub const PAUSE: Duration = Duration::from_millis(50);

/// What a session waits for.
#[derive(Debug)]
pub enum Event {
    /// A well-formed message from the peer.
    Message(Message),
    /// Bytes from the peer that are not a DXP message.
    Bad {
        /// The bytes, printable (for the log).
        raw: String,
        /// What is wrong with them.
        reason: String,
        /// The version field, when the bytes start like a GAMEREQ.
        gamereq_version: Option<String>,
    },
    /// The connection is gone; why.
    Closed(String),
    /// A search of this session ended.
    Searched(Result<Done>),
}

/// A connection: the events it produced so far and the means to answer.
pub struct Link {
    stream: TcpStream,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    pending: VecDeque<Event>,
    last_send: Option<Instant>,
    reader: Option<JoinHandle<()>>,
    /// The peer's address, for log lines.
    pub peer: String,
    closed: bool,
}

impl Link {
    /// Starts reading `stream` on a thread of its own.
    pub fn new(stream: TcpStream) -> std::io::Result<Link> {
        let peer = stream.peer_addr().map_or_else(|_| "?".to_string(), |a| a.to_string());
        // Every message is one small write that must leave at once.
        let _ = stream.set_nodelay(true);
        let input = stream.try_clone()?;
        let (tx, rx) = channel();
        let reader_tx = tx.clone();
        let label = peer.clone();
        let reader = std::thread::Builder::new()
            .name("kondavo-dxp-read".into())
            .spawn(move || read_events(input, reader_tx, &label))?;
        Ok(Link {
            stream,
            tx,
            rx,
            pending: VecDeque::new(),
            last_send: None,
            reader: Some(reader),
            peer,
            closed: false,
        })
    }

    /// A sender for events produced beside the connection (search results).
    pub fn sender(&self) -> Sender<Event> {
        self.tx.clone()
    }

    /// Sends one message (with its `\0`). A failed write closes the link; the error says why.
    pub fn send(&mut self, message: &Message) -> std::result::Result<(), String> {
        if self.closed {
            return Err("the connection is closed".into());
        }
        if let Some(t) = self.last_send {
            let since = t.elapsed();
            if since < PAUSE {
                std::thread::sleep(PAUSE - since);
            }
        }
        let text = message.to_string();
        log::debug!("dxp {} > {text}", self.peer);
        let mut bytes = text.into_bytes();
        bytes.push(0);
        let written = self.stream.write_all(&bytes).and_then(|_| self.stream.flush());
        self.last_send = Some(Instant::now());
        written.map_err(|e| {
            self.closed = true;
            format!("cannot send to {}: {e}", self.peer)
        })
    }

    /// The next event: those put back first, then the connection's. `None` when `timeout`
    /// passes first.
    pub fn next(&mut self, timeout: Option<Duration>) -> Option<Event> {
        if let Some(e) = self.pending.pop_front() {
            return Some(e);
        }
        self.next_new(timeout)
    }

    /// The next event that was not put back.
    pub fn next_new(&mut self, timeout: Option<Duration>) -> Option<Event> {
        let event = match timeout {
            None => self.rx.recv().ok(),
            Some(t) => match self.rx.recv_timeout(t) {
                Ok(e) => Some(e),
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => None,
            },
        };
        // The link holds a sender itself, so the channel cannot run dry; stay safe anyway.
        let event = event.unwrap_or_else(|| Event::Closed("the connection is closed".into()));
        if matches!(event, Event::Closed(_)) {
            self.closed = true;
        }
        Some(event)
    }

    /// Puts events back, to be returned by [`next`](Self::next) before anything new, in order.
    pub fn put_back(&mut self, events: impl IntoIterator<Item = Event>) {
        let mut events: Vec<Event> = events.into_iter().collect();
        while let Some(e) = events.pop() {
            self.pending.push_front(e);
        }
    }

    /// True when an event was put back.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Closes the connection and waits for the reader thread.
    pub fn close(&mut self) {
        self.closed = true;
        let _ = self.stream.shutdown(Shutdown::Both);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.close();
    }
}

/// Reads until the connection ends, sending one event per message.
fn read_events(mut input: TcpStream, tx: Sender<Event>, peer: &str) {
    let mut framer = Framer::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => {
                let why = if framer.pending() > 0 {
                    format!(
                        "the peer closed the connection in the middle of a message ({} bytes)",
                        framer.pending()
                    )
                } else {
                    "the peer closed the connection".to_string()
                };
                let _ = tx.send(Event::Closed(why));
                return;
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Event::Closed(format!("the connection failed: {e}")));
                return;
            }
        };
        for frame in framer.push(&buf[..n]) {
            let event = match frame {
                Frame::TooLong => Event::Bad {
                    raw: String::new(),
                    reason: format!(
                        "a message longer than {} bytes (no \\0 found)",
                        codec::MAX_FRAME
                    ),
                    gamereq_version: None,
                },
                Frame::Message(raw) => {
                    log::debug!("dxp {peer} < {}", codec::shown(&raw));
                    match codec::parse(&raw) {
                        Ok(m) => Event::Message(m),
                        Err(reason) => Event::Bad {
                            raw: codec::shown(&raw),
                            reason,
                            gamereq_version: codec::gamereq_version(&raw),
                        },
                    }
                }
            };
            if tx.send(event).is_err() {
                return;
            }
        }
    }
}
