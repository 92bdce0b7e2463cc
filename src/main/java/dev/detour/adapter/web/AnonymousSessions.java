package dev.detour.adapter.web;

import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * the console sessions opened only for the sign-in form (anonymous, before sign-in), at most
 * {@code max} at once. A new one over the cap ends the oldest, so a flood of sign-in page loads
 * cannot fill the heap and the owner's fresh form still gets a session. Signed-in sessions are not
 * counted. Registered as a session listener so ended sessions leave the count.
 */
public final class AnonymousSessions implements HttpSessionListener {
    private final int max;
    private final Map<String, HttpSession> byAge = new LinkedHashMap<>(); // oldest first
    private final LongAdder evicted = new LongAdder();

    public AnonymousSessions(int max) {
        this.max = max;
    }

    /** A session was just opened for the sign-in form. */
    void opened(HttpSession session) {
        HttpSession oldest = null;
        synchronized (byAge) {
            byAge.put(session.getId(), session);
            if (byAge.size() > max) {
                Iterator<HttpSession> it = byAge.values().iterator();
                oldest = it.next();
                it.remove();
            }
        }
        if (oldest != null) {
            evicted.increment();
            try {
                oldest.invalidate(); // its sign-in form's token stops working; a reload gets a new one
            } catch (IllegalStateException alreadyEnded) {
                // ended meanwhile: nothing to do
            }
        }
    }

    /** The session signed in (call before its id changes): it is no longer anonymous. */
    void signedIn(HttpSession session) {
        forget(session.getId());
    }

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        forget(event.getSession().getId());
    }

    private void forget(String id) {
        synchronized (byAge) {
            byAge.remove(id);
        }
    }

    /** Anonymous sessions alive now. */
    public int count() {
        synchronized (byAge) {
            return byAge.size();
        }
    }

    /** Anonymous sessions ended early because the cap was reached. */
    public long evictedCount() {
        return evicted.sum();
    }
}
