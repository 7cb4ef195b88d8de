"""Conversational cases, written by hand on 2 Dec 2026 (issue 28): chats, Q&A and design
discussions without tools, short and long. The key facts were written from each conversation
before any squash of it was read. Origin "chat-held-out": not looked at while tuning the
note (their figures only); "forbidden" holds what a wrong or meta-laden note would say.
"""

def user(text): return {"role": "user", "content": [{"type": "user_message", "text": text}]}
def said(text): return {"role": "assistant", "content": [{"type": "assistant_message", "structured": {"full_text": text}}]}

chats = []

chats.append({"name": "chat-short-unit", "origin": "chat", "messages": [
    user("How many bytes is a u32 in Rust?"),
    said("Four bytes: a u32 is 32 bits, so std::mem::size_of::<u32>() returns 4."),
 ], "select": None,
 "facts": [["u32"], ["4", "four"]],
 "forbidden": ["summary", "the assistant wanted"]})

chats.append({"name": "chat-short-recipe", "origin": "chat", "messages": [
    user("I have eggs, spinach and feta. Quick dinner idea?"),
    said("Make a spinach and feta omelette: wilt the spinach for a minute, pour in three beaten eggs, crumble the feta on top and fold after about 3 minutes."),
    user("No stove, only an oven."),
    said("Then bake it as a frittata: same ingredients in an oiled dish, 180 °C for 15 to 20 minutes, until the middle is set."),
 ], "select": None,
 "facts": [["frittata"], ["180"], ["15", "20"], ["feta"], ["spinach"], ["oven"]],
 "forbidden": ["stove top", "microwave"]})

chats.append({"name": "chat-short-verbose-user", "origin": "chat", "messages": [
    user("Okay so, to put it simply, and I really want to be clear here because last time it went wrong: our team has a standup every day at 9:30 and I keep missing it because my calendar shows it in UTC, not in Berlin time. How do I fix that in Google Calendar?"),
    said("In Google Calendar open Settings, then General, then Time zone, and set the primary time zone to (GMT+01:00) Central European Time - Berlin. Events are then shown in Berlin time, so the 9:30 standup shows at 9:30."),
 ], "select": None,
 "facts": [["time zone", "timezone"], ["berlin"], ["9:30"], ["settings"]],
 "forbidden": ["to put it simply", "i really want to be clear"]})

chats.append({"name": "chat-short-wrong-then-right", "origin": "chat", "messages": [
    user("What's the capital of Australia?"),
    said("Sydney."),
    user("Are you sure? I thought it was something else."),
    said("You're right, I was wrong: the capital is Canberra. Sydney is the largest city."),
 ], "select": None,
 "facts": [["canberra"], ["sydney"]],
 "forbidden": ["the capital is sydney", "capital of australia is sydney"]})

chats.append({"name": "chat-probability", "origin": "chat", "messages": [
    user("A test for a disease is 99% accurate, and 1 in 1,000 people have the disease. I tested positive. What's the chance I actually have it? My doctor said it's basically certain, which scared me."),
    said("Less than it sounds. Take 100,000 people: 100 have the disease and the test finds 99 of them. Of the 99,900 healthy people, 1% test positive by mistake, that is 999 false positives. So of the 1,098 positive results only 99 are real: about 9%. This is Bayes' theorem, and the low base rate (0.1%) is what drives the answer down. \"99% accurate\" also hides two numbers, sensitivity and specificity; I assumed both are 99%."),
    user("So should I just ignore the result?"),
    said("No. A positive result raises your chance from 0.1% to about 9%, which is ninety times higher. The usual next step is a second, independent test: if that is positive too, the chance rises to roughly 90%. Ask your doctor for a confirmatory test rather than treating the first result as final."),
    user("What if the disease were common, say 1 in 10?"),
    said("Then the same test would be far more convincing. Of 1,000 people, 100 are ill and 99 test positive; of the 900 healthy, 9 test positive. So 99 of 108 positives are real: about 92%. The base rate matters as much as the accuracy."),
 ], "select": None,
 "facts": [["9%", "9 %", "about 9"], ["999"], ["bayes"], ["base rate"], ["sensitivity"], ["specificity"], ["second", "confirmatory"], ["90%", "90 %"], ["92%", "92 %"], ["0.1%", "1 in 1,000", "1 in 1000"]],
 "forbidden": ["99% chance you have", "basically certain that"]})

chats.append({"name": "chat-design-decision", "origin": "chat", "messages": [
    user("We need to store user uploads (images up to 20 MB, around 50,000 a day). Options on the table: keep them in Postgres as bytea, put them on the app servers' disks, or S3. What do you recommend?"),
    said("S3 (or any object store). Postgres bytea works for small files but 50,000 uploads a day at up to 20 MB bloats the database, slows backups and vacuum, and every read goes through your app. Local disks break as soon as you run more than one app server or replace one. With S3 you store only the object key and metadata in Postgres, serve files through presigned URLs, and lifecycle rules can move old uploads to cheaper storage."),
    user("Our compliance team says data must stay in the EU and we can't use AWS at all."),
    said("Then use an S3-compatible store run in the EU: for example Hetzner Object Storage or a self-hosted MinIO cluster in your own EU data centre. The design stays the same: the key and metadata in Postgres, the bytes in the object store, presigned URLs for downloads. MinIO gives you full control but you operate it; Hetzner is managed."),
    user("Let's go with MinIO, we already run our own servers in Frankfurt. One worry: virus scanning."),
    said("Decided then: self-hosted MinIO in Frankfurt. For scanning, upload to a quarantine bucket first, let a worker scan each object with ClamAV, and move clean files to the main bucket; only then write the row in Postgres. Open question for you: what should happen to infected files, deletion or keeping them for the security team?"),
 ], "select": None,
 "facts": [["minio"], ["frankfurt"], ["eu"], ["aws"], ["bytea"], ["presigned"], ["quarantine"], ["clamav"], ["20 mb", "20mb"], ["50,000", "50000", "50 000"], ["infected"]],
 "forbidden": ["we chose aws", "use aws s3"]})

chats.append({"name": "chat-debugging-wrong-first-fix", "origin": "chat-held-out", "messages": [
    user("My Flask app returns 'CSRF token missing' on every POST from the React frontend since we moved the frontend to app.example.com and the API to api.example.com."),
    said("That is usually the cookie's SameSite setting. Set SESSION_COOKIE_SAMESITE = 'None' and SESSION_COOKIE_SECURE = True in the Flask config so the browser sends the session cookie cross-site."),
    user("Did that, still the same error. The cookie is sent now, I can see it in the request."),
    said("Then the cookie is fine and the token itself is missing. Flask-WTF reads the token from the X-CSRFToken header or a form field, and your React app sends neither: it used to read it from a meta tag in the page the API served. Two things to change: add a GET /csrf endpoint that returns generate_csrf(), have React call it once and send the value in an X-CSRFToken header, and set WTF_CSRF_SSL_STRICT = False, because with SSL strict mode Flask-WTF also checks that the Referer matches the API's own host, which app.example.com does not."),
    user("That worked! The header plus the strict setting. Thanks."),
 ], "select": None,
 "facts": [["x-csrftoken"], ["/csrf", "generate_csrf"], ["wtf_csrf_ssl_strict"], ["referer"], ["samesite"], ["app.example.com"], ["api.example.com"], ["flask-wtf", "flask"]],
 "forbidden": ["samesite fixed", "the samesite change fixed"]})

chats.append({"name": "chat-verbose-explanation", "origin": "chat-held-out", "messages": [
    user("Explain what a Rust lifetime is. I come from Python."),
    said("Great question, and a very common one for people coming from Python! So, let's take a step back first. In Python you never think about how long a value lives, because the garbage collector (reference counting, plus a cycle collector) keeps every object alive as long as anything points at it. Rust has no garbage collector. Instead, every value has exactly one owner, and when the owner goes out of scope the value is dropped, right there, deterministically. Now, a reference (&T) lets you look at a value without owning it. And here's the key idea: a lifetime is simply the compiler's name for the stretch of code during which a reference is valid. The borrow checker makes sure no reference outlives the value it points to, so you can never have a dangling pointer. Most of the time you never write lifetimes at all, because the compiler infers them (this is called lifetime elision). You only write them, like 'a in fn longest<'a>(x: &'a str, y: &'a str) -> &'a str, when a function returns a reference and the compiler can't tell which input it came from. In that example, 'a says: the returned reference lives no longer than the shorter-lived of x and y. I hope this helps, and let me know if you want me to go deeper into any part of it!"),
    user("So it's not about making things live longer?"),
    said("Exactly right, and that's a really important point that trips many people up! A lifetime annotation never changes how long a value lives. It only describes relationships between references that already exist, so the compiler can check them. If something doesn't live long enough, the fix is to change ownership: return an owned String instead of a &str, clone the value, or move it into the struct, not to add annotations."),
 ], "select": None,
 "facts": [["owner", "ownership"], ["borrow checker"], ["dangling"], ["elision"], ["'a"], ["longest"], ["never changes", "does not change", "doesn't change", "not make", "never make"], ["string"], ["garbage collector"]],
 "forbidden": ["great question", "i hope this helps", "let me know"]})

chats.append({"name": "chat-support-case", "origin": "chat", "messages": [
    user("Hi, I was charged twice for my March subscription, order number 48213-B. Both charges are 29.90 EUR on my Visa ending 4417, on March 3."),
    said("I'm sorry about that. I can see order 48213-B and two payments of 29.90 EUR on 3 March. The second one is a duplicate caused by a payment retry on our side. I have started a refund of 29.90 EUR to the Visa ending 4417; it takes 5 to 10 business days to appear. Your refund reference is RF-90217."),
    user("Ok. Will this happen again in April? I don't want to check every month."),
    said("It should not: the retry bug was fixed on 12 March, after your charge. To be safe I have added a note to your account so that billing checks your April renewal by hand. If you do see two charges again, reply to this ticket (#55120) and we refund both the duplicate and one month's fee."),
    user("Fine, thanks."),
 ], "select": None,
 "facts": [["48213-b"], ["29.90"], ["4417"], ["rf-90217"], ["5 to 10", "5-10", "5–10"], ["12 march", "march 12"], ["55120"], ["april"], ["duplicate", "twice", "two charges", "two payments"]],
 "forbidden": ["refund was denied", "no refund"]})

chats.append({"name": "chat-release-plan", "origin": "chat-held-out", "messages": [
    user("Let's plan release 3.2. Feature freeze date, what goes in, and who does what. Candidates: the new export wizard (Priya), SSO with Okta (Marek), dark mode (Lena), and the billing rewrite (Tom)."),
    said("Proposal: feature freeze on Friday 14 November, release candidate on 19 November, release on 26 November. The export wizard and SSO with Okta are nearly done, so they go in. Dark mode is small but touches every screen; it can go in if Lena merges it before the freeze. The billing rewrite is too risky for a minor release: move it to 4.0."),
    user("Agree on all but dark mode: design isn't signed off, so it waits for 3.3. Also Marek is off the week of the 17th."),
    said("Updated plan for 3.2: export wizard (Priya) and SSO with Okta (Marek) only. Freeze on 14 November stays. Since Marek is away the week of 17 November, SSO must be merged and tested by the freeze, and Priya covers SSO questions during the release candidate week. Dark mode moves to 3.3 pending design sign-off, and the billing rewrite to 4.0. Open item: who writes the release notes?"),
    user("Tom writes the release notes."),
 ], "select": None,
 "facts": [["3.2"], ["14 november", "november 14", "14 nov"], ["26 november", "november 26", "26 nov"], ["export wizard"], ["okta", "sso"], ["3.3"], ["4.0"], ["design", "sign-off", "signed off"], ["release notes"], ["tom"], ["17"]],
 "forbidden": ["dark mode goes in", "dark mode is in 3.2"]})

chats.append({"name": "chat-russian-qa", "origin": "chat-held-out", "messages": [
    user("Как в PostgreSQL посмотреть размер таблицы вместе с индексами?"),
    said("Используйте функцию pg_total_relation_size: SELECT pg_size_pretty(pg_total_relation_size('orders')); Она считает таблицу, все её индексы и TOAST. Только таблица без индексов — pg_relation_size, только индексы — pg_indexes_size."),
    user("А для всех таблиц сразу, отсортировать по размеру?"),
    said("Так: SELECT relname, pg_size_pretty(pg_total_relation_size(relid)) FROM pg_catalog.pg_statio_user_tables ORDER BY pg_total_relation_size(relid) DESC; Представление pg_statio_user_tables содержит только пользовательские таблицы, системные не попадут."),
 ], "select": None,
 "facts": [["pg_total_relation_size"], ["pg_size_pretty"], ["pg_relation_size"], ["pg_indexes_size"], ["pg_statio_user_tables"], ["toast"], ["desc", "order by"]],
 "forbidden": ["summary", "резюме"]})

chats.append({"name": "chat-agent-plan-no-tools", "origin": "chat-held-out", "messages": [
    user("Before you touch anything: I want to split our monolith's `billing` module into its own service. The module is 14k lines of Python, talks to the `orders` and `users` tables directly, and is called from 37 places. What's your plan?"),
    said("Plan in four steps. 1) Put an interface in front of billing inside the monolith: a BillingClient class with the operations the 37 call sites use, and route every call site through it. 2) Stop billing from reading orders and users directly: give it its own tables, fed by events (OrderPlaced, UserUpdated) from the monolith. 3) Move the code behind BillingClient into a separate service with its own database; BillingClient then calls it over HTTP. 4) Run both paths side by side behind the flag billing_remote for two weeks, comparing results, before deleting the in-process path. Step 1 is safe to start now; step 2 is where most of the risk is."),
    user("Why events rather than letting the new service query the monolith's database?"),
    said("Because a shared database keeps the two coupled: any schema change in orders or users could break billing, and you could never deploy them independently. Events give billing its own copy of just the fields it needs, and the monolith can change its tables freely. The cost is eventual consistency: billing may be a few seconds behind, which is fine for invoices but not for the credit limit check, so that one check should stay a synchronous call."),
 ], "select": None,
 "facts": [["billingclient"], ["37"], ["orderplaced"], ["userupdated"], ["billing_remote"], ["two weeks", "2 weeks"], ["eventual consistency", "eventually consistent"], ["credit limit"], ["shared database", "coupled"], ["14k", "14,000", "14 000"]],
 "forbidden": ["query the monolith's database directly is fine"]})
