"""Held-out chats 2 (issue 28): a second held-out set of conversations without tools, origin
"chat-held-out-2". Nothing in the note's code or prompts was tuned on them, and no squash or
summary of any of them was run or read before their key facts were written (by hand, by a helper
session on 4 Dec 2026, from each conversation alone).

Five are real public conversations, copied byte for byte (one contiguous root-to-leaf path of a
conversation tree each): crowd-sourced OpenAssistant chats (oasst, Apache-2.0; both sides written
by people, the assistant side by volunteers answering as the assistant), from
github.com/LAION-AI/Open-Assistant, model/model_eval/manual/data/en_100_tree.jsonl — see
testdata/SOURCES.md, "Held-out chats 2 (issue 28)", for the message ids:
  chat2-oasst-tongue-sore, chat2-oasst-budget-gpu, chat2-oasst-code-review-matrix,
  chat2-oasst-hungary-itinerary, chat2-oasst-wyoming-statute.
Three are hand-written (no licensed real conversation of that kind was found):
  chat2-postgres-slow-query, chat2-german-git-revert, chat2-pricing-trial-reversal.

"facts": each a list of accepted spellings (lower-case substrings, any one counts);
"forbidden": what a wrong, retracted or meta-laden note would say.
"""
from chats import user, said

chats_heldout2 = []
O = "chat-held-out-2"
META = ["the user asked", "great question", "i hope this helps"]

# Real (oasst, Apache-2.0): a medical-ish question answered with caveats.
chats_heldout2.append({"name": "chat2-oasst-tongue-sore", "origin": O, "messages": [
    user('I have a small wound or sore at the tip of my tongue, and it hurts a lot, interrupting my daily life. Are there steps I could take to ensure it heals properly and quickly?'),
    said('Yes, you can take several steps to promote healing and reduce discomfort of a sore or wound on your tongue:\n'
         '\n'
         '1. Rinse your mouth with salt water several times a day. This can help to reduce inflammation and kill bacteria.\n'
         '2. Avoid spicy, acidic, and crunchy foods that can irritate the wound and slow healing.\n'
         '3. Avoid alcohol and tobacco products, as they can also irritate the wound and slow healing.\n'
         '4. Try over-the-counter pain relievers, such as ibuprofen or acetaminophen, to reduce pain and discomfort.\n'
         '5. Apply a topical numbing agent, such as Orajel, to the affected area to help numb the pain.\n'
         '6. Keep up good oral hygiene, brushing and flossing regularly.\n'
         '7. If the wound does not heal after 2–3 days, or shows signs of infection (such as redness, swelling, or discharge), see a dentist or doctor for further evaluation and treatment.'),
    user('what do you think the wound might be?'),
    said('Tongue sores can have several causes, some of which may be harmless, while others may be more serious. The most common causes of sores at the tip of the tongue include:\n'
         '\n'
         '    Injury: Biting or scalding your tongue can cause a sore to develop.\n'
         '    Allergies: Eating something you are allergic to can cause an irritated patch on your tongue.\n'
         '    Ulcers: Round or oval sores in the mouth, including the underside of the tongue, can be caused by factors such as stress, certain foods, or mouth damage.\n'
         '    Infection: Bacteria, fungi, or viruses can cause tongue sores, such as oral thrush, a fungal infection.\n'
         '    Geographic tongue: This condition causes red patches and soreness on the tongue due to missing bumps.\n'
         '    Neuralgia: Pain in the tongue due to nerve damage or disturbance can occur throughout the tongue or at a specific point.\n'
         '    Oral cancer: A sore on the tongue can be a symptom of oral cancer, which is the growth of abnormal cells in the mouth.'),
 ], "select": None,
 "facts": [["salt water", "saltwater", "salt-water"], ["spicy", "acidic", "crunchy"], ["alcohol", "tobacco"],
           ["ibuprofen", "acetaminophen"], ["orajel", "numbing"],
           ["2–3 days", "2-3 days", "2 to 3 days", "two to three days", "2–3", "2-3"],
           ["dentist", "doctor"], ["redness", "swelling", "discharge"], ["ulcer"], ["thrush"], ["geographic tongue"],
           ["oral cancer", "cancer"]],
 "forbidden": META + ["summary", "it is oral cancer", "is definitely"]})

# Real (oasst, Apache-2.0): hardware advice, then the user's budget turns it to renting.
chats_heldout2.append({"name": "chat2-oasst-budget-gpu", "origin": O, "messages": [
    user('Which affordable GPU would you recommend to train a language model?'),
    said('The most affordable GPU for training a language model greatly depends on your specific requirements, the largest factor being the amount of GPU memory needed. According to Tim Dettmers at https://timdettmers.com/2023/01/16/which-gpu-for-deep-learning/ , the most cost-efficient (relative to performance) GPU for deep learning is the RTX 4070 Ti (12 GB). Cheaper options include used RTX 3060 GPUs which also have 12GB of RAM, but lower inference and training performance. As a rough guide, you will need at least 12GB for image generation and at least 24GB to work with transformers which are common for language models. For language models, that essentially forces you to get an RTX 3090, 3090Ti, or 4090 due to the 24GB of GPU memory they have. \n'
         '\n'
         'Large Language Models with more than 13B parameters often require much more powerful cards in terms of GPU memory capacity, or multiple cards, to train, thus not being affordable. However, there are lots of improvements happening the deep learning scene to optimize models such as 8-bit inference and training, and the dynamics of the market change frequently, thus I would recommend active research to get the latest information possible.'),
    user("That's out of my budget, I'm afraid. Is it possible to train a language model without buying a GPU?"),
    said('You can rent GPU time in the cloud from companies such as AWS, Google Cloud, vast.ai, Paperspace, and others. Alternatively, if your model is small enough, you might be able to train it on your current GPU or using services with free tiers such as Google Colab or Kaggle.'),
    user('How long will it take to train my own chat gbt with Google Colab’s free services?'),
    said('Since Colabs free services are limited to time and computing power, you could only train a small model which may not be as capable as a bigger model. Since smaller models dont need as much time to train as bigger models, it shouldnt take too long, depending on your dataset of course!'),
 ], "select": None,
 "facts": [["4070 ti", "4070ti"], ["dettmers"], ["3060"], ["12 gb", "12gb"], ["24 gb", "24gb"],
           ["3090", "4090"], ["13b", "13 billion"], ["rent gpu", "rent a gpu", "renting", "rented", "cloud"],
           ["vast.ai", "paperspace", "google cloud", "aws"], ["colab"], ["kaggle", "free tier"],
           ["small model", "smaller model", "small enough"]],
 "forbidden": META + ["summary", "not possible without", "must buy a gpu"]})

# Real (oasst, Apache-2.0): a code review without tools, with a second round of requests.
chats_heldout2.append({"name": "chat2-oasst-code-review-matrix", "origin": O, "messages": [
    user('Given the code below, refactor it, add comments and improve it in any way you think is best.\n'
         '```\n'
         'from logger import get_logger\n'
         'from nio import AsyncClient, MatrixRoom, RoomMessageText\n'
         'import os\n'
         'import asyncio\n'
         'import datetime as dt\n'
         '\n'
         '# https://matrix-nio.readthedocs.io/en/latest/examples.html#a-basic-client\n'
         '\n'
         '_logger = get_logger()\n'
         '\n'
         'ELEM_ROOM = os.environ.get("ELEM_ROOM")\n'
         'ELEM_USR = os.environ.get("ELEM_USR")\n'
         'ELEM_PSW = os.environ.get("ELEM_PSW")\n'
         '\n'
         '\n'
         'def send(msg):\n'
         '    async def message_callback_send(room: MatrixRoom, event: RoomMessageText) -> None:\n'
         '        # _logger.info(f"{room.user_name(event.sender)} | {event.body}")\n'
         '        _logger.info(\n'
         '            f"Message sent to room {room.display_name} | {room.user_name(event.sender)}: {event.body}"\n'
         '        )\n'
         '\n'
         '    async def send_message() -> None:\n'
         '        client = AsyncClient("https://matrix.org", ELEM_USR)\n'
         '        client.add_event_callback(message_callback_send, RoomMessageText)\n'
         '        try:\n'
         '            _logger.info(await client.login(ELEM_PSW))\n'
         '        except ValueError as e:\n'
         '            _logger.error(f"Failed to login - wrong or missing password?\\n{e}")\n'
         '            raise (e)\n'
         '        await client.room_send(\n'
         '            room_id=ELEM_ROOM,\n'
         '            message_type="m.room.message",\n'
         '            content={"msgtype": "m.text", "body": msg},\n'
         '        )\n'
         '        #await client.sync_forever(timeout=0) # milliseconds\n'
         '        _logger.info(\n'
         '            f"Message sent to room {ELEM_ROOM} | {ELEM_USR}: {msg}"\n'
         '        )\n'
         '        await client.close()\n'
         '\n'
         '    asyncio.get_event_loop().run_until_complete(send_message())\n'
         '\n'
         'if __name__ == "__main__":\n'
         '    msg = f"Hello world! {dt.datetime.now()}"\n'
         '    send(msg)\n'
         '```'),
    said('Here is the refactored and commented version:\n'
         '\n'
         '```\n'
         'import os\n'
         'import asyncio\n'
         'import datetime as dt\n'
         '\n'
         'from logger import get_logger\n'
         'from nio import AsyncClient, MatrixRoom, RoomMessageText\n'
         '\n'
         '# Get a logger instance for the module\n'
         '_logger = get_logger()\n'
         '\n'
         '# Get environment variables\n'
         'ELEM_ROOM = os.environ.get("ELEM_ROOM")\n'
         'ELEM_USR = os.environ.get("ELEM_USR")\n'
         'ELEM_PSW = os.environ.get("ELEM_PSW")\n'
         '\n'
         '\n'
         'def send(msg):\n'
         '\n'
         '\n'
         '    async def message_callback_send(room: MatrixRoom, event: RoomMessageText) \n'
         '        -> None:\n'
         '        # Log the message that was sent\n'
         '        _logger.info(\n'
         '            f"Message sent to room {room.display_name} | \n'
         '            {room.user_name(event.sender)}: {event.body}"\n'
         '         )\n'
         '\n'
         '\n'
         '    async def send_message() -> None:\n'
         '        # Create a Matrix client instance\n'
         '        client = AsyncClient("https://matrix.org", ELEM_USR)\n'
         '        # Add a callback function to handle message events\n'
         '        client.add_event_callback(message_callback_send, RoomMessageText)\n'
         '        try:\n'
         '            # Log in to the Matrix server with the provided password\n'
         '            _logger.info(await client.login(ELEM_PSW))\n'
         '        except ValueError as e:\n'
         '            # If the login fails, log the error and raise an exception\n'
         '            _logger.error(f"Failed to login - wrong or missing password?\\n{e}")\n'
         '            raise e\n'
         '        # Send the message to the specified room\n'
         '        await client.room_send(\n'
         '            room_id = ELEM_ROOM,\n'
         '            message_type = "m.room.message",\n'
         '            content = {"msgtype": "m.text", "body": msg},\n'
         '         )\n'
         '        # Log the message that was sent\n'
         '        _logger.info(f"Message sent to room {ELEM_ROOM} | {ELEM_USR}: {msg}")\n'
         '        # Close the client connection\n'
         '        await client.close()\n'
         '\n'
         '    # Run the send_message coroutine in an event loop\n'
         '    asyncio.get_event_loop().run_until_complete(send_message())\n'
         '\n'
         '# If this script is run directly (not imported as a module)\n'
         'if __name__ == "__main__":\n'
         '    # Create a message with the current date and time\n'
         '    msg = f"Hello world! {dt.datetime.now()}"\n'
         '    # Send the message to the Matrix room\n'
         '    send(msg)\n'
         '\n'
         '```\n'
         '\n'
         '- I moved the import statements to the top of the file, since this is the standard convention in Python.\n'
         '- I added comments throughout the code to explain what each section is doing.\n'
         '- I removed commented out code\n'
         '- I changed the **raise (e)** statement to **raise e**, since the parentheses are unnecessary.\n'
         '- I ensured the code follows the PEP-8 style guide'),
    user('Some of the comments seem almost like English versions of the line below them, especially when printing or logging is involved. Can you make it a bit less redundant? Also, can you add documentation and typing to comply with pydocstyle and mypy?'),
    said("Certainly! Here's a revised version with less redundant comments, type hints and docstrings:\n"
         '\n'
         '```python\n'
         '\n'
         'import os\n'
         'import asyncio\n'
         'import datetime as dt\n'
         '\n'
         'from logger import get_logger\n'
         'from nio import AsyncClient, MatrixRoom, RoomMessageText\n'
         '\n'
         '_logger = get_logger()\n'
         '\n'
         'ELEM_ROOM = os.environ.get("ELEM_ROOM")\n'
         'ELEM_USR = os.environ.get("ELEM_USR")\n'
         'ELEM_PSW = os.environ.get("ELEM_PSW")\n'
         '\n'
         '\n'
         'def send_message_to_room(message: str) -> None:\n'
         '    """Send a message to a Matrix room.\n'
         '\n'
         '    Args:\n'
         '        message (str): The message to send.\n'
         '    """\n'
         '    async def handle_message_sent(room: MatrixRoom, event: RoomMessageText) -> None:\n'
         '        """Log the message that was sent to the room.\n'
         '\n'
         '        Args:\n'
         '            room (MatrixRoom): The room where the message was sent.\n'
         '            event (RoomMessageText): The message event.\n'
         '        """\n'
         '        _logger.info(f"Message sent to room {room.display_name} | "\n'
         '                     f"{room.user_name(event.sender)}: {event.body}")\n'
         '\n'
         '    async def send_message() -> None:\n'
         '        """Log in to the Matrix server and send a message to a room."""\n'
         '        client = AsyncClient("https://matrix.org", ELEM_USR)\n'
         '        client.add_event_callback(handle_message_sent, RoomMessageText)\n'
         '        try:\n'
         '            await client.login(ELEM_PSW)\n'
         '            _logger.info("Logged in to Matrix server")\n'
         '        except ValueError as e:\n'
         '            _logger.error(f"Failed to login to Matrix server: {e}")\n'
         '            raise e\n'
         '        await client.room_send(\n'
         '            room_id=ELEM_ROOM,\n'
         '            message_type="m.room.message",\n'
         '            content={"msgtype": "m.text", "body": message},\n'
         '        )\n'
         '        _logger.info(f"Message sent to room {ELEM_ROOM} | {ELEM_USR}: {message}")\n'
         '        await client.close()\n'
         '\n'
         '    asyncio.get_event_loop().run_until_complete(send_message())\n'
         '\n'
         '\n'
         'if __name__ == "__main__":\n'
         '    message = f"Hello world! {dt.datetime.now()}"\n'
         '    send_message_to_room(message)\n'
         '```\n'
         '\n'
         'In the revised version:\n'
         '\n'
         '* Added docstrings to the functions to provide more detailed explanations.\n'
         '* Added type hints to the function parameters and return types.\n'
         '* Replaced the message_callback_send function with handle_message_sent for better clarity.\n'
         '* Removed redundant comments and replaced them with more descriptive ones.\n'
         '* Changed the logging statement in the exception block to be more informative.\n'
         '* Changed the log message when logging in to the server to be more concise.'),
 ], "select": None,
 "facts": [["matrix"], ["elem_room", "elem_usr", "elem_psw"], ["raise (e)", "raise e"], ["pep-8", "pep 8", "pep8"],
           ["pydocstyle"], ["mypy"], ["docstring"], ["type hint", "typing", "type annotation"],
           ["send_message_to_room"], ["handle_message_sent"], ["redundant"],
           ["commented out", "commented-out", "sync_forever"]],
 "forbidden": META + ["summary"]})

# Real (oasst, Apache-2.0): travel planning, narrowed down by the user; filler in the middle answer.
chats_heldout2.append({"name": "chat2-oasst-hungary-itinerary", "origin": O, "messages": [
    user('planning travel in hungary'),
    said("I don't quite get what you mean because your statement can mean multiple things"),
    user('How would you plan a nice travel itinerary for Hungary?'),
    said("Sure, I can help you plan a nice travel itinerary for Hungary. To start, you'll want to decide what type of vacation you'd like to have. Are you looking for a cultural experience, a relaxing beach vacation, or something a bit more adventurous? Once you've determined your ideal vacation, you can begin to plan your itinerary. \n"
         '\n'
         "There are plenty of popular tourist attractions in Hungary, such as the Parliament Building in Budapest, the Buda Castle, the Danube River, and the thermal baths. Depending on your interests, you can also visit some of the country's many museums, galleries, and churches. \n"
         '\n'
         "It's also a good idea to plan a day trip or two to the Hungarian countryside. There are plenty of quaint villages and stunning natural sites to explore. \n"
         '\n'
         'Finally, make sure to set aside some time to enjoy the local cuisine. Hungarian cuisine is known for its hearty dishes, such as goulash and stuffed cabbage. There are also plenty of delicious desserts, such as the famous Dobos torte. \n'
         '\n'
         'I hope this helps you plan a great travel itinerary for Hungary!'),
    user("I'm looking for a cultural experience, what's the best way to experience the culture of Hungary with only a couple days available?"),
    said('If you only have a couple of days in Hungary and you\'re interested in experiencing its culture, then I would recommend focusing on Budapest. The city is often referred to as the "Paris of the East" and is one of the most beautiful and historically rich cities in Europe.\n'
         '\n'
         "Here's a sample itinerary that you can follow:\n"
         '\n'
         'Day 1:\n'
         '\n'
         "    - Start with a visit to the Parliament Building, one of the most recognizable landmarks in the city and a symbol of Hungary's rich political history.\n"
         '    - Next, head to Buda Castle, which houses several museums, galleries, and the Hungarian National Gallery.\n'
         "    - After visiting the castle, take a stroll along the Danube River promenade, which offers great views of the city's famous bridges.\n"
         '\n'
         'Day 2:\n'
         '\n'
         "    - Visit one of Budapest's famous thermal baths, such as the Gellért Baths or the Rudas Baths, for a relaxing and culturally significant experience.\n"
         '    - In the afternoon, explore the Jewish Quarter and visit the Great Synagogue, which is the largest synagogue in Europe.\n'
         "    - End the day by trying some of Hungary's delicious cuisine, such as goulash or stuffed peppers."),
 ], "select": None,
 "facts": [["budapest"], ["couple of days", "couple days", "two days", "2 days", "2-day", "two-day", "day 2"],
           ["cultur"], ["parliament"], ["buda castle"], ["danube"], ["thermal bath"], ["gellért", "gellert"],
           ["rudas"], ["jewish quarter"], ["great synagogue", "largest synagogue"], ["goulash"]],
 "forbidden": META + ["summary", "beach vacation", "lake balaton"]})

# Real (oasst, Apache-2.0): a legal question about a state statute.
chats_heldout2.append({"name": "chat2-oasst-wyoming-statute", "origin": O, "messages": [
    user('What do Wyoming statutes have to say about public nudity? Under what circumstances is it generally illegal to be naked in public, in the State of Wyoming?'),
    said('In the state of Wyoming, public nudity is generally illegal and considered to be a form of indecent exposure. According to Wyoming statute 6-8-103, it is illegal for any person to expose their genitalia in a public place or in a place where others are present and may be offended or annoyed.\n'
         '\n'
         'However, there are some exceptions to this rule. For example, nudity is allowed in certain public spaces, such as beaches, where it is traditionally accepted. In addition, nudity may be allowed for artistic or educational purposes, as long as it is not sexually explicit in nature.\n'
         '\n'
         'It\'s also worth noting that the definition of what constitutes a "public place" can vary, but generally includes any place that is accessible to the public or to which the public has a right of access. This can include parks, sidewalks, and other public spaces.\n'
         '\n'
         'In summary, in the state of Wyoming, public nudity is generally illegal and considered to be a form of indecent exposure, unless it falls under certain exceptions, such as those related to artistic or educational purposes.'),
    user('why is it illegal?'),
    said('Laws against public nudity are generally a product of social convention. Humans in Wyoming (or rather most places in the world) wear clothes the vast majority of the time so the act of being naked is associated with the occasions in which humans would normally take off their clothes. More specifically, showing off your naked body to other people is associated with sexuality. In this context it can be considered to be very rude to be naked in public since this imposes sexuality on other people without their consent. Wyoming in particular is a conservative state, and social conservatives in particular think that sexuality should not be part of public life.'),
 ], "select": None,
 "facts": [["wyoming"], ["6-8-103"], ["indecent exposure"], ["genitalia", "genitals"],
           ["offended or annoyed", "offended", "annoyed"], ["public place"], ["beach"],
           ["artistic", "educational"], ["sexually explicit"], ["social convention", "convention"],
           ["consent"], ["conservative"]],
 "forbidden": ["the user asked", "great question", "i hope this helps", "public nudity is legal"]})

# Hand-written: a Postgres performance question whose first fix was wrong.
chats_heldout2.append({"name": "chat2-postgres-slow-query", "origin": O, "messages": [
    user("Our Postgres 15 query got slow and I don't know why. The orders table has about 12 million rows. This takes 4.8 seconds:\n\n"
         "SELECT id, total_cents, status FROM orders\n"
         "WHERE customer_id = 4821 AND created_at::date >= '2024-01-01'\n"
         "ORDER BY created_at DESC LIMIT 20;\n\n"
         "There is already an index on customer_id. What should I do?"),
    said("First get the real plan: run EXPLAIN (ANALYZE, BUFFERS) on the query, that shows where the 4.8 seconds go. "
         "My guess is that the planner uses the customer_id index, fetches all of that customer's rows and then sorts them by created_at. "
         "The quick fix is an index on the sort column:\n\n"
         "CREATE INDEX CONCURRENTLY orders_created_at_idx ON orders (created_at);\n\n"
         "With it, Postgres can walk the orders newest first and stop after 20 matching rows."),
    user("Added it, no change, still about 4.7 s. EXPLAIN ANALYZE says:\n\n"
         "Limit  (actual time=4701.9..4702.0 rows=20 loops=1)\n"
         "  ->  Gather Merge  (actual time=4701.9..4702.0 rows=20 loops=1)\n"
         "        ->  Sort  (actual time=4688.1..4688.1 rows=15 loops=3)\n"
         "              Sort Key: created_at DESC\n"
         "              ->  Parallel Seq Scan on orders  (actual time=0.41..4630.5 rows=214377 loops=3)\n"
         "                    Filter: ((customer_id = 4821) AND ((created_at)::date >= '2024-01-01'::date))\n"
         "                    Rows Removed by Filter: 3785290\n"
         "Execution Time: 4712.3 ms\n\n"
         "Maybe relevant: customer 4821 is our marketplace account, it has about 900,000 orders."),
    said("That plan changes my answer: the created_at index was the wrong fix, and you can drop it again "
         "(DROP INDEX CONCURRENTLY orders_created_at_idx;), it only slows down writes. Two things go wrong here:\n\n"
         "1. created_at::date casts the column, so Postgres cannot use a plain index on created_at for that condition. "
         "Compare the raw column with a range instead: created_at >= '2024-01-01'. If created_at is a timestamptz, "
         "the cast also depends on the session's TimeZone setting, another reason to avoid it.\n"
         "2. Customer 4821 has about 900,000 orders, so the customer_id index alone would still fetch and sort hundreds "
         "of thousands of rows; the planner rightly prefers the seq scan.\n\n"
         "The fix is one composite index that matches both the filter and the sort order:\n\n"
         "CREATE INDEX CONCURRENTLY orders_customer_created_idx\n"
         "  ON orders (customer_id, created_at DESC) INCLUDE (total_cents, status);\n\n"
         "With the rewritten WHERE clause, Postgres reads the 20 newest rows of that customer straight from the index and stops. "
         "The INCLUDE columns make it an Index Only Scan, as long as the visibility map is current, so run VACUUM (ANALYZE) orders "
         "once after creating it."),
    user("Done, rewrote the WHERE too. Now 0.9 ms, Index Only Scan using orders_customer_created_idx. Should I also partition the table by month?"),
    said("Not for this query: at 0.9 ms there is nothing left to gain, and partitioning by created_at would make every query that "
         "doesn't filter on created_at visit all partitions. Revisit partitioning when the table gets near 100 million rows or when "
         "you need to delete old data cheaply, for example a retention rule for orders older than 7 years: dropping a partition is "
         "much cheaper than a big DELETE.\n\n"
         "One more clean-up: the old single-column index on customer_id is now covered by the composite index, whose leading column "
         "is customer_id, so it is probably redundant. Before dropping it, check in pg_stat_user_indexes that its idx_scan count "
         "stops growing for a week or so."),
 ], "select": None,
 "facts": [["12 million", "12m rows", "12,000,000", "12 000 000"], ["4.8 s", "4.8s", "4.8 sec", "4.7 s", "4712"],
           ["::date", "cast"], ["(customer_id, created_at desc)", "customer_id, created_at"],
           ["orders_customer_created_idx"], ["include (total_cents", "covering"], ["0.9 ms", "0.9ms"],
           ["900,000", "900000", "900 000", "900k"], ["index only scan", "index-only scan"],
           ["orders_created_at_idx"], ["100 million", "partition"], ["pg_stat_user_indexes", "idx_scan"]],
 "forbidden": META + ["summary", "created_at index fixed", "index on created_at fixed", "partition the table now"]})

# Hand-written, German: a git question whose first answer is withdrawn (protected branch).
chats_heldout2.append({"name": "chat2-german-git-revert", "origin": O, "messages": [
    user("Ich habe aus Versehen drei Commits direkt auf main gemacht statt auf einem Feature-Branch, und sie sind schon auf origin gepusht. "
         "Wie bekomme ich die da wieder weg, ohne die Arbeit zu verlieren?"),
    said("Das lässt sich gut reparieren. Wenn noch niemand die Commits geholt hat, geht es in drei Schritten:\n\n"
         "1. Arbeit sichern: git branch feature/rechnungsexport – der neue Branch zeigt auf deinen jetzigen Stand.\n"
         "2. main um drei Commits zurücksetzen: git reset --hard HEAD~3\n"
         "3. Remote überschreiben: git push --force-with-lease origin main\n\n"
         "Danach liegen die drei Commits nur noch auf feature/rechnungsexport, und main ist wieder wie vorher."),
    user("Geht leider nicht: main ist bei uns in GitLab geschützt, Force-Push ist verboten. Und zwei Kollegen haben seit heute Morgen schon gepullt."),
    said("Dann vergiss reset und Force-Push: Die Historie von main darf nicht umgeschrieben werden, sonst bekommen deine Kollegen "
         "beim nächsten Pull Commits zurück, die es auf origin nicht mehr gibt. Stattdessen nimmst du die Änderungen mit einem neuen Commit zurück:\n\n"
         "1. git branch feature/rechnungsexport (sichert deine Arbeit, falls noch nicht geschehen)\n"
         "2. git switch -c revert-versehentliche-commits origin/main\n"
         "3. git revert --no-commit HEAD~3..HEAD\n"
         "4. git commit -m \"Revert: drei Commits gehören auf feature/rechnungsexport\"\n"
         "5. Den Branch pushen und einen Merge Request nach main öffnen.\n\n"
         "Ein Haken für später: Wenn du feature/rechnungsexport irgendwann nach main mergst, hält Git die drei Commits für schon "
         "enthalten – der Revert hebt sie ja nur auf. Der Merge würde deine Änderungen also stillschweigend nicht zurückbringen. "
         "Dafür gibt es zwei Wege: vor dem Merge den Revert-Commit selbst zurücknehmen (Revert des Reverts), oder die drei Commits "
         "per git cherry-pick als neue Commits auf einen frischen Branch setzen."),
    user("Okay, der Revert ist gemergt. Ich nehme die Variante mit cherry-pick. Die drei Commits sind 3f9a1c2, 7b20e45 und 8d04e7b. Muss ich was beachten?"),
    said("Ja, zwei Dinge. Erstens erzeugt cherry-pick neue Commits mit neuen Hashes; verweise in Tickets also nicht mehr auf die alten. "
         "Zweitens die Reihenfolge: vom ältesten zum neuesten.\n\n"
         "git switch -c feature/rechnungsexport-2 origin/main\n"
         "git cherry-pick 3f9a1c2^..8d04e7b\n\n"
         "Der Bereich 3f9a1c2^..8d04e7b nimmt alle drei Commits einschließlich 3f9a1c2 mit. Den alten Branch feature/rechnungsexport "
         "kannst du danach löschen (git branch -D feature/rechnungsexport), damit ihn niemand versehentlich mergt.\n\n"
         "Damit es nicht wieder passiert: In GitLab unter Settings → Repository → Protected branches bei main „Allowed to push“ auf "
         "„No one“ stellen. Dann geht alles nur noch über Merge Requests."),
 ], "select": None,
 "facts": [["git revert"], ["head~3..head"], ["--no-commit", "no-commit"], ["geschützt", "protected"],
           ["merge request"], ["feature/rechnungsexport"], ["cherry-pick"], ["3f9a1c2^..8d04e7b", "3f9a1c2"],
           ["neue hashes", "neuen hashes", "new hashes"],
           ["schon enthalten", "bereits enthalten", "revert des reverts", "nicht zurückbringen", "already contained"],
           ["feature/rechnungsexport-2"], ["no one", "allowed to push"]],
 "forbidden": ["force-with-lease origin main", "der nutzer", "der benutzer", "the user asked", "zusammenfassung", "summary"]})

# Hand-written: a product decision (free plan vs trial) reversed by new numbers; filler in the first answer.
chats_heldout2.append({"name": "chat2-pricing-trial-reversal", "origin": O, "messages": [
    user("We launch our invoicing SaaS, Ledgerly, on 3 February and still haven't settled free plan vs free trial. Marketing wants a "
         "free-forever plan limited to 3 clients; I lean towards a 14-day trial. Numbers from the beta: 1,200 beta users, 9% of them "
         "upgraded when we asked them to pay, hosting costs about €0.40 per active account per month, and free users opened 62% of all "
         "support tickets."),
    said("Great question, and honestly one of the most important decisions you'll make before launch! There's no one-size-fits-all "
         "answer here, and plenty of successful companies have gone either way, so let's think it through together.\n\n"
         "With hosting at €0.40 per account, a free plan is cheap: even 10,000 free accounts cost about €4,000 a month, which is less "
         "than most paid acquisition channels. A 9% upgrade rate is healthy for a freemium product, and invoicing spreads by itself, "
         "because every invoice a free user sends shows your brand to their client. So my recommendation: go freemium, with a free plan "
         "capped at 3 clients and 5 invoices a month, and paid plans above it. I hope this helps you get started on the pricing page!"),
    user("Finance pushed back. Support costs us €18 per ticket, and free users open 0.3 tickets per month on average. Also Invoicely, "
         "our closest competitor, dropped its free plan last year."),
    said("That changes the math, and I withdraw the freemium recommendation. Support is the real cost, not hosting: 0.3 tickets × €18 "
         "= €5.40 per free user per month, plus €0.40 hosting, so about €5.80 per free user. 10,000 free accounts would cost around "
         "€58,000 a month, not €4,000. That is far too much for a product whose paid plans are in the €12 to €29 range.\n\n"
         "So: a 14-day trial with all features and no credit card required, which keeps sign-up friction low. Two details make it work:\n"
         "- When the trial ends without an upgrade, the account switches to a read-only archive mode: users can still download the "
         "invoices they sent (they may have to keep them for tax reasons), but can't create new ones. That costs almost nothing in support.\n"
         "- Keep the paid plans simple: Solo at €12 a month and Team at €29 a month."),
    user("Agreed: 14-day trial, no card, read-only afterwards. But accountants who sign up through our partner program get 21 days, they "
         "need a full month-end close to evaluate it. What about the 1,200 beta users?"),
    said("Final plan:\n"
         "- Standard trial: 14 days, no credit card.\n"
         "- Partner program (accountants): 21-day trial.\n"
         "- After the trial without an upgrade: read-only archive mode.\n"
         "- Plans: Solo €12/month, Team €29/month.\n"
         "- Beta users: keep the Solo plan free until 30 June, then 50% off their first paid year.\n\n"
         "Next step before the 3 February launch: update the pricing page and create the matching products and prices in Stripe. "
         "Open question for you: should trials that end without an upgrade get a reminder email sequence, and who owns it, marketing or product?"),
 ], "select": None,
 "facts": [["ledgerly"], ["14-day", "14 day", "14 days"], ["no credit card", "no card", "without a credit card", "without credit card"],
           ["21-day", "21 day", "21 days"], ["partner program", "accountant"], ["read-only", "read only"],
           ["5.80", "5,80", "58,000", "58000", "58 000"], ["30 june", "june 30", "june 30th", "30th june", "30th of june"], ["50%", "50 %", "half"],
           ["3 february", "february 3", "3rd february", "3rd of february", "3 feb", "feb 3"], ["stripe"], ["email"]],
 "forbidden": META + ["summary", "go freemium", "recommend freemium"]})
