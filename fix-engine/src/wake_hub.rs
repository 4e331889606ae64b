//! One cross-thread wake a sync for every connection of a runtime.
//!
//! The shared log's sync thread wakes every connection task its sync
//! covered. A task's own waker, called from that thread, schedules the task
//! from outside its runtime: tokio queues it and wakes the runtime's driver
//! with a write to its eventfd, once for each task (measured: 0.55 `write`s
//! an order with 1,000 sessions a side). Here each connection awaits its
//! sync through a [`Via`] waker instead: the sync thread's wake puts the
//! task's waker on its runtime's [`Hub`], and only the first one after the
//! hub was emptied wakes the hub's own task. That task, on the runtime,
//! wakes the connections: a wake from within the runtime, with no system
//! call.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll, Wake, Waker};

/// The hubs of the runtimes that have one, by runtime.
static HUBS: Mutex<Option<HashMap<tokio::runtime::Id, Weak<Hub>>>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A runtime's wakers to call, and its task that calls them.
#[derive(Default)]
pub(crate) struct Hub {
    queue: Mutex<Vec<Waker>>,
    task: Mutex<Option<Waker>>,
    /// The hub's task runs (false once the runtime dropped it: wakes then
    /// go straight to their tasks).
    alive: AtomicBool,
}

impl Hub {
    /// The current runtime's hub, started on it if it has none.
    pub(crate) fn current() -> Arc<Hub> {
        let id = tokio::runtime::Handle::current().id();
        let mut hubs = lock(&HUBS);
        let hubs = hubs.get_or_insert_with(HashMap::new);
        if let Some(hub) = hubs.get(&id).and_then(Weak::upgrade)
            && hub.alive.load(Ordering::Acquire)
        {
            return hub;
        }
        hubs.retain(|_, h| h.strong_count() > 0);
        let hub = Arc::new(Hub {
            alive: AtomicBool::new(true),
            ..Hub::default()
        });
        hubs.insert(id, Arc::downgrade(&hub));
        tokio::spawn(Hub::run(hub.clone()));
        hub
    }

    /// Queues `waker`; the first after the queue was emptied wakes the task.
    fn push(&self, waker: Waker) {
        if !self.alive.load(Ordering::Acquire) {
            return waker.wake();
        }
        let first = {
            let mut queue = lock(&self.queue);
            queue.push(waker);
            queue.len() == 1
        };
        if first && let Some(task) = &*lock(&self.task) {
            task.wake_by_ref();
        }
    }

    /// The hub's task: waits for wakers and calls them, on the runtime.
    async fn run(hub: Arc<Hub>) {
        let _alive = Alive(hub.clone());
        let mut woken = Vec::new();
        loop {
            std::future::poll_fn(|cx| {
                {
                    let mut task = lock(&hub.task);
                    if !task.as_ref().is_some_and(|t| t.will_wake(cx.waker())) {
                        *task = Some(cx.waker().clone());
                    }
                }
                // After the waker is in place: a push from now on sees the
                // queue as this leaves it and wakes the task if it is empty.
                let mut queue = lock(&hub.queue);
                if queue.is_empty() {
                    return Poll::Pending;
                }
                std::mem::swap(&mut *queue, &mut woken);
                Poll::Ready(())
            })
            .await;
            for waker in woken.drain(..) {
                waker.wake();
            }
        }
    }
}

/// Marks the hub dead when its task is dropped, and hands what it queued
/// back to their tasks directly.
struct Alive(Arc<Hub>);

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.alive.store(false, Ordering::Release);
        let left = std::mem::take(&mut *lock(&self.0.queue));
        for waker in left {
            waker.wake();
        }
    }
}

/// A connection's waker for its syncs: the task's own waker, reached
/// through its runtime's hub.
pub(crate) struct Via {
    hub: Arc<Hub>,
    task: Mutex<Option<Waker>>,
}

impl Via {
    /// A connection's, on the current runtime's hub.
    pub(crate) fn new() -> Arc<Via> {
        Arc::new(Via {
            hub: Hub::current(),
            task: Mutex::new(None),
        })
    }

    /// Polls `inner` so that its wake reaches this task through the hub.
    pub(crate) fn poll<F: Future + Unpin>(
        self: &Arc<Self>,
        inner: &mut F,
        cx: &mut Context<'_>,
    ) -> Poll<F::Output> {
        {
            let mut task = lock(&self.task);
            if !task.as_ref().is_some_and(|t| t.will_wake(cx.waker())) {
                *task = Some(cx.waker().clone());
            }
        }
        let waker = Waker::from(self.clone());
        Pin::new(inner).poll(&mut Context::from_waker(&waker))
    }
}

impl Wake for Via {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if let Some(task) = lock(&self.task).clone() {
            self.hub.push(task);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// A future woken from another thread, counting its polls.
    struct Flag(Arc<(AtomicBool, Mutex<Option<Waker>>)>);

    impl Future for Flag {
        type Output = ();
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            *lock(&(self.0).1) = Some(cx.waker().clone());
            if (self.0).0.load(Ordering::Acquire) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        }
    }

    #[tokio::test(flavor = "current_thread")]
    async fn tasks_woken_from_another_thread_through_the_hub_all_run() {
        let done = Arc::new(AtomicUsize::new(0));
        let mut flags = Vec::new();
        let mut tasks = Vec::new();
        for _ in 0..50 {
            let flag = Arc::new((AtomicBool::new(false), Mutex::new(None)));
            flags.push(flag.clone());
            let done = done.clone();
            tasks.push(tokio::spawn(async move {
                let via = Via::new();
                let mut inner = Flag(flag);
                std::future::poll_fn(|cx| via.poll(&mut inner, cx)).await;
                done.fetch_add(1, Ordering::AcqRel);
            }));
        }
        // Every task waits on its flag.
        tokio::task::yield_now().await;
        while flags.iter().any(|f| lock(&f.1).is_none()) {
            tokio::task::yield_now().await;
        }
        std::thread::spawn(move || {
            for f in &flags {
                f.0.store(true, Ordering::Release);
                if let Some(w) = lock(&f.1).take() {
                    w.wake();
                }
            }
        })
        .join()
        .unwrap();
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(done.load(Ordering::Acquire), 50);
    }

    #[test]
    fn a_hub_whose_runtime_is_gone_wakes_its_tasks_directly() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let hub = rt.block_on(async {
            let hub = Hub::current();
            tokio::task::yield_now().await;
            hub
        });
        drop(rt);
        assert!(!hub.alive.load(Ordering::Acquire));
        let woken = Arc::new(AtomicBool::new(false));
        struct Set(Arc<AtomicBool>);
        impl Wake for Set {
            fn wake(self: Arc<Self>) {
                self.0.store(true, Ordering::Release);
            }
        }
        hub.push(Waker::from(Arc::new(Set(woken.clone()))));
        assert!(woken.load(Ordering::Acquire));
    }
}
