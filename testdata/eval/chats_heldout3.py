"""Held-out chats 3 (issue 28): a third held-out set of conversations without tools, origin
"chat-held-out-3". Nothing in the note's code or prompts was tuned on them, and no squash or
summary of any of them was run or read before their key facts were written (by hand, by a helper
session on 5 Dec 2026, from each conversation alone).

Four are real public conversations, copied byte for byte (one contiguous root-to-leaf path of a
conversation tree each, every message on it marked synthetic: false): crowd-sourced OpenAssistant
chats (oasst, Apache-2.0; both sides written by people, the assistant side by volunteers answering
as the assistant), from github.com/LAION-AI/Open-Assistant,
model/model_eval/manual/data/en_100_tree.jsonl (trees not used by chats_heldout2) — see
testdata/SOURCES.md, "Held-out chats 3 (issue 28)", for the message ids:
  chat3-oasst-fine-structure, chat3-oasst-gspread-rows, chat3-oasst-tv-console-gaming,
  chat3-oasst-sicp-beginner.
Four are hand-written, each for a hard case no licensed real conversation was found for:
  chat3-cron-first-monday (the assistant retracts its own first answer),
  chat3-spanish-docker-postgres (a technical Q&A in Spanish),
  chat3-verbose-tabs-spaces (long, filler-laden answers with few facts),
  chat3-python-sort-stability (the user corrects the assistant, and the assistant accepts).

"facts": each a list of accepted spellings (lower-case substrings, any one counts);
"forbidden": what a wrong, retracted or meta-laden note would say.
"""
from chats import user, said

chats_heldout3 = []
O = "chat-held-out-3"
META = ["the user asked", "great question", "i hope this helps"]

# Real (oasst, Apache-2.0): a physics question answered with a number, then where else it appears.
chats_heldout3.append({"name": "chat3-oasst-fine-structure", "origin": O, "messages": [
    user('What is the fine structure constant and how does it relate to the limits of the speed of light?'),
    said('The Fine-structure constant is an important physical constant.  It is a dimensionless number that quantifies the strength of the electromagnetic interaction. It has a measured value of 0.0072973525693 with some error, or approximately 1/137. \n'
         '\n'
         'The fine structure constant can be interpreted as the ratio between the velocity of the electron in the first circular orbit of the Bohr model of the atom and the speed of light.'),
    user('Where else have we observed the fine structure constant in physics?'),
    said('The fine structure constant appears in many different areas of physics and it has been used as a fundamental constant in many calculations and theories. Some examples include:\n'
         '\n'
         'Quantum Electrodynamics (QED): The fine structure constant appears in the equations of QED, which is the theory that describes the interactions between electrically charged particles and electromagnetic fields.\n'
         '\n'
         'Hydrogen spectra: The fine structure constant plays a role in determining the spectral lines observed in hydrogen atoms, and the energy levels of the electrons in hydrogen.\n'
         '\n'
         'Electron magnetic moment: The fine structure constant appears in the calculation of the magnetic moment of the electron, which is one of its fundamental properties.\n'
         '\n'
         'Black Hole Physics: The fine structure constant also appears in the calculation of the gravitational interaction between charged particles, and it has been used to study the properties of black holes.\n'
         '\n'
         'Astrophysics: The fine structure constant has been used to study the properties of stars and galaxies, and it has been used to constrain the properties of dark matter.\n'
         '\n'
         'These are just a few examples, and the fine structure constant appears in many other areas of physics as well. It is considered to be one of the most accurately measured physical constants, and its value is crucial in many calculations and theories in physics.'),
 ], "select": None,
 "facts": [["fine structure constant", "fine-structure constant", "fine structure", "fine-structure", "α"],
           ["dimensionless"], ["electromagnetic"],
           ["0.0072973525693", "0.00729735", "0.007297", "0.0073", "7.297"],
           ["1/137", "1 / 137", "137"], ["bohr"], ["speed of light"],
           ["quantum electrodynamics", "qed"], ["hydrogen"], ["magnetic moment"], ["black hole"],
           ["dark matter", "astrophysics", "stars and galaxies"]],
 "forbidden": META + ["summary", "0.0729", "1/173"]})

# Real (oasst, Apache-2.0): a coding question (Google Sheets from Python), then a formatting request.
# The first answer repeats itself (a pasted "python / Copy code" duplicate), as in the source.
chats_heldout3.append({"name": "chat3-oasst-gspread-rows", "origin": O, "messages": [
    user('How can I write a python script that accesses a specific google sheets document. I want to be able to iterate over the rows in the sheet.'),
    said("To access a specific Google Sheet in Python, you will need to use the Google Sheets API. To get started, you'll need to set up a project in the Google Developers Console and enable the Google Sheets API.\n"
         '\n'
         "Here's an example of how you can write a Python script to access a specific Google Sheet:\n"
         '\n'
         'import os\n'
         'import gspread\n'
         'from oauth2client.service_account import ServiceAccountCredentials\n'
         '\n'
         '# Use your Google API credentials to authenticate\n'
         "scope = ['https://spreadsheets.google.com/feeds',\n"
         "         'https://www.googleapis.com/auth/drive']\n"
         '\n'
         'credentials = ServiceAccountCredentials.from_json_keyfile_name(\n'
         "    os.environ['GOOGLE_API_CREDENTIALS'], scope)\n"
         '\n'
         '# Authenticate and access the Google Sheets API\n'
         'client = gspread.authorize(credentials)\n'
         '\n'
         '# Open the specific Google Sheet you want to access\n'
         'sheet = client.open("My Google Sheet").sheet1\n'
         '\n'
         '# Iterate over the rows in the sheet\n'
         'for row in sheet.get_all_values():\n'
         '    print(row)\n'
         '\n'
         "To access a specific Google Sheet in Python, you will need to use the Google Sheets API. To get started, you'll need to set up a project in the Google Developers Console and enable the Google Sheets API.\n"
         '\n'
         "Here's an example of how you can write a Python script to access a specific Google Sheet:\n"
         '\n'
         'python\n'
         'Copy code\n'
         'import os\n'
         'import gspread\n'
         'from oauth2client.service_account import ServiceAccountCredentials\n'
         '\n'
         '# Use your Google API credentials to authenticate\n'
         "scope = ['https://spreadsheets.google.com/feeds',\n"
         "         'https://www.googleapis.com/auth/drive']\n"
         '\n'
         'credentials = ServiceAccountCredentials.from_json_keyfile_name(\n'
         "    os.environ['GOOGLE_API_CREDENTIALS'], scope)\n"
         '\n'
         '# Authenticate and access the Google Sheets API\n'
         'client = gspread.authorize(credentials)\n'
         '\n'
         '# Open the specific Google Sheet you want to access\n'
         'sheet = client.open("My Google Sheet").sheet1\n'
         '\n'
         '# Iterate over the rows in the sheet\n'
         'for row in sheet.get_all_values():\n'
         '    print(row)\n'
         'In this example, the script uses the gspread library to interact with the Google Sheets API. The gspread library allows you to easily read and write to a Google Sheet, as well as interact with other aspects of the API.\n'
         '\n'
         "In this example, the ServiceAccountCredentials class from the oauth2client.service_account module is used to authenticate your API credentials. Replace os.environ['GOOGLE_API_CREDENTIALS'] with the path to your Google API credentials file.\n"
         '\n'
         'Note: You will need to install the gspread and oauth2client libraries by running the following command in your terminal:\n'
         '\n'
         'pip install gspread oauth2client'),
    user('Can you put the code in python code blocks like this?\n'
         '```python\n'
         '# Code goes here\n'
         '```'),
    said('Yes, here it is in code blocks: \n'
         '```python\n'
         'import os\n'
         'import gspread\n'
         'from oauth2client.service_account import ServiceAccountCredentials\n'
         '\n'
         '# Use your Google API credentials to authenticate\n'
         "scope = ['https://spreadsheets.google.com/feeds',\n"
         "         'https://www.googleapis.com/auth/drive']\n"
         '\n'
         'credentials = ServiceAccountCredentials.from_json_keyfile_name(\n'
         "    os.environ['GOOGLE_API_CREDENTIALS'], scope)\n"
         '\n'
         '# Authenticate and access the Google Sheets API\n'
         'client = gspread.authorize(credentials)\n'
         '\n'
         '# Open the specific Google Sheet you want to access\n'
         'sheet = client.open("My Google Sheet").sheet1\n'
         '\n'
         '# Iterate over the rows in the sheet\n'
         'for row in sheet.get_all_values():\n'
         '    print(row)\n'
         '```'),
 ], "select": None,
 "facts": [["google sheets api", "sheets api"],
           ["google developers console", "developers console", "developer console"],
           ["gspread"], ["oauth2client"], ["serviceaccountcredentials", "service account"],
           ["from_json_keyfile_name", "json keyfile", "json key file", "credentials file", "keyfile"],
           ["google_api_credentials"], ["authorize"], ["sheet1"], ["get_all_values"],
           ["pip install"], ["code block", "```python", "code fence", "fenced"]],
 "forbidden": META + ["summary", "pygsheets"]})

# Real (oasst, Apache-2.0): buying advice, then the user's use (console gaming at 4K 120Hz) changes it.
chats_heldout3.append({"name": "chat3-oasst-tv-console-gaming", "origin": O, "messages": [
    user('When I buy a new TV, what specifications should I pay close attention to and what can I ignore?'),
    said('When buying a new TV, it is important to consider the following specifications:\n'
         '\n'
         '- Screen size: Decide on the size that best fits your room and viewing distance.\n'
         '- Resolution: Look for a minimum of Full HD (1080p) or 4K Ultra HD (2160p) resolution for clear and sharp picture quality.\n'
         '- HDR (High Dynamic Range): HDR enhances picture quality by increasing contrast and color accuracy.\n'
         '- Panel type: Look for an LED-LCD or an OLED panel for the best picture quality.\n'
         '- Smart TV features: If you want to use your TV for streaming, look for a smart TV with popular streaming apps like Netflix, Amazon Prime Video, etc.\n'
         '\n'
         'The following specifications can be ignored or given less importance:\n'
         '- Refresh rate: A refresh rate of 60Hz is sufficient for most users, but higher refresh rates of 120Hz or 240Hz are marketed for sports and fast-paced content.\n'
         '- Speaker quality: External speakers can easily be added for improved sound quality.\n'
         '- Viewing angle: Unless you have a large room or plan on viewing from a wide angle, viewing angle may not be a major concern.'),
    user('How would your answer change if I told you the TV was going to be used mainly for console gaming? I will be playing on platforms capable of 4K 120Hz visuals.'),
    said('If the TV is going to be mainly used for console gaming, you will want to pay close attention to the following specifications:\n'
         '\n'
         'Resolution: Look for a 4K Ultra HD (2160p) resolution for clear and sharp picture quality.\n'
         'HDR (High Dynamic Range): HDR enhances picture quality by increasing contrast and color accuracy, which can enhance the overall gaming experience.\n'
         'Refresh rate: Look for a high refresh rate of at least 120Hz to ensure smooth and responsive gaming.\n'
         'Input lag: Low input lag is important for responsive gaming, look for a TV with input lag of less than 15ms.\n'
         'VRR (Variable Refresh Rate) support: VRR technology can help reduce screen tearing and stuttering during gaming, look for a TV with VRR support.\n'
         'The following specifications can be ignored or given less importance:\n'
         '\n'
         'Speaker quality: External speakers or a gaming headset can be added for improved sound quality.\n'
         'Viewing angle: Unless you have a large room or plan on viewing from a wide angle, viewing angle may not be a major concern.\n'
         'Smart TV features: Gaming TVs are often not marketed for their smart TV capabilities, but you can use a separate device for streaming.'),
 ], "select": None,
 "facts": [["console gaming", "gaming"], ["4k", "2160p"], ["hdr", "high dynamic range"],
           ["oled", "led-lcd"], ["120hz", "120 hz"], ["input lag"], ["15ms", "15 ms"],
           ["vrr", "variable refresh rate"], ["tearing", "stuttering"], ["speaker", "headset"],
           ["viewing angle"], ["smart tv", "streaming"]],
 "forbidden": META + ["summary", "60hz is sufficient for gaming", "refresh rate can be ignored for gaming", "use a monitor instead"]})

# Real (oasst, Apache-2.0): a beginner's questions; a recommendation (SICP: no) with alternatives.
chats_heldout3.append({"name": "chat3-oasst-sicp-beginner", "origin": O, "messages": [
    user('Hallo there, \n'
         '\n'
         'I have been interested into learning how to program, but I can’t seem to pick a language. \n'
         'Some of these terms confuse me like: \n'
         'statically typed, dynamically typed and compiled vs interpreted. \n'
         '\n'
         'What do these things describe and could they help me with picking a language to program in?'),
    said('In lay mans terms:\n'
         'A statically type language requires you to define the type for each variable.\n'
         "A dynamically type language will infer the type from it's value rather than being explicitly defined by the user.\n"
         '\n'
         'A dynamically typed language would be best for a beginner. It will allow you the freedom to learn the basics of programming without worrying too much about specific data types.'),
    user('I have been told I NEED to read Structure and Interpretation of Computer Programs (SICP) to be any good as a programmer, is that true?'),
    said('No single book will make you a good programmer, but hard work and dedication will. \n'
         '\n'
         'As you are new to programming, I would recommend you start by getting familiar with the basics of any programming language that interests and try make some programs with it. You can choose a book to help you in the learning process, but in the end nothing beats experience in writing and trying out actual code. Do what actually interests you. Wether thats reading books about programming or trying to create a video game. \n'
         '\n'
         'In my opinion, the book you asked about is not suitable for a beginner, as it was originally published over 30 years ago and technology has changed a lot since then. \n'
         'Additionally, the examples in SICP are written in the LISP programming language, which is rarely used anymore. You will probably have an easier time with a more popular language like Python, Javascript or C#.\n'
         '\n'
         'Here are some beginner friendly books I would recommend instead:\n'
         '-  Code: The Hidden Language of Computer Hardware and Software\n'
         '-  Unity in Action: Multiplatform Game Development in C# with Unity 5\n'
         '-  Automate the Boring Stuff with Python: Practical Programming for Total Beginners \n'
         '\n'
         'Keep in mind that nowadays, there are many free online resources to learn programming. Some great examples are:\n'
         '- https://www.khanacademy.org\n'
         '- https://www.codecademy.com/\n'
         '- https://www.freecodecamp.org/\n'
         '\n'
         'Due to the digital nature of programming, having a website where you can interactively try things out, can make learning easier and more fun. \n'
         '\n'
         'Remember that programming is a practical task and it is easy to get bogged down in the theory. Try to actually get your hands dirty quickly and you will find that you can make your first simple ideas come to life in no time.'),
 ], "select": None,
 "facts": [["statically", "static typ"], ["dynamically", "dynamic typ"],
           ["sicp", "structure and interpretation"],
           ["no single book", "not suitable", "unsuitable", "not necessary", "not needed", "don't need", "do not need", "not required", "not essential"],
           ["30 years", "thirty years"], ["lisp"], ["python", "javascript", "c#"],
           ["the hidden language", "hidden language of computer"], ["unity in action", "unity"],
           ["automate the boring stuff"], ["khan academy", "khanacademy", "codecademy", "freecodecamp"],
           ["experience", "practical", "hands dirty", "actual code", "writing code"]],
 "forbidden": META + ["summary", "must read sicp", "you need to read sicp", "sicp is essential"]})

# Hand-written: the assistant retracts its own first answer (cron ORs day-of-month and day-of-week).
chats_heldout3.append({"name": "chat3-cron-first-monday", "origin": O, "messages": [
    user("I need a cron job on our Ubuntu 22.04 server that runs /opt/reports/monthly.sh at 02:30 on the first Monday of every "
         "month. The server clock is UTC, which is fine. What's the crontab line?"),
    said("Use the day-of-month field for the first seven days and the day-of-week field for Monday:\n\n"
         "30 2 1-7 * 1 /opt/reports/monthly.sh\n\n"
         "The first Monday of a month always falls between the 1st and the 7th, so restricting both fields gives you exactly that "
         "Monday. Add it with crontab -e as the user that owns the script, and send the output to a log so you can see failures:\n\n"
         "30 2 1-7 * 1 /opt/reports/monthly.sh >> /var/log/monthly-report.log 2>&1"),
    user("Thanks. Before I add it: the report is heavy and hits the production database, so it must never run more than once a "
         "month. Anything else I should know?"),
    said("Yes, and scratch my line above: it is wrong, sorry. When both day-of-month and day-of-week are restricted (neither is *), "
         "cron runs the job when either field matches, not when both do. So 30 2 1-7 * 1 runs at 02:30 on every day from the 1st "
         "to the 7th and on every Monday of the month as well: ten or eleven runs a month instead of one, exactly what you "
         "must avoid.\n\n"
         "The usual fix is to let cron match the days 1 to 7 only and test the weekday in the command:\n\n"
         "30 2 1-7 * * [ \"$(date +\\%u)\" -eq 1 ] && /opt/reports/monthly.sh >> /var/log/monthly-report.log 2>&1\n\n"
         "date +%u prints the weekday as 1 (Monday) to 7 (Sunday). Keep the backslash before the %: in a crontab line an unescaped "
         "% becomes a newline and the rest of the line is passed to the command as standard input, so the test would silently "
         "break.\n\n"
         "If you'd rather avoid the quirk altogether, a systemd timer says what you mean, because there the weekday and the date "
         "must both match:\n\n"
         "OnCalendar=Mon *-*-01..07 02:30:00\n"
         "Persistent=true\n\n"
         "Persistent=true also runs a missed job once after the machine was down at 02:30, which cron doesn't do."),
    user("Let's go with the systemd timer. The job should run as the reports user, not as root. How do I set it up?"),
    said("Two files in /etc/systemd/system.\n\n"
         "monthly-report.service:\n\n"
         "[Unit]\n"
         "Description=Monthly report\n\n"
         "[Service]\n"
         "Type=oneshot\n"
         "User=reports\n"
         "ExecStart=/opt/reports/monthly.sh\n\n"
         "monthly-report.timer:\n\n"
         "[Unit]\n"
         "Description=Monthly report, first Monday of the month at 02:30 UTC\n\n"
         "[Timer]\n"
         "OnCalendar=Mon *-*-01..07 02:30:00\n"
         "Persistent=true\n\n"
         "[Install]\n"
         "WantedBy=timers.target\n\n"
         "Then run sudo systemctl daemon-reload and sudo systemctl enable --now monthly-report.timer (enable the timer, not the "
         "service). systemctl list-timers monthly-report.timer shows the next run, and you can check the expression without "
         "waiting a month: systemd-analyze calendar \"Mon *-*-01..07 02:30:00\" prints the next time it elapses. The script's "
         "output goes to the journal: journalctl -u monthly-report.service."),
 ], "select": None,
 "facts": [["first monday"], ["02:30", "2:30"],
           ["either", "or-ed", "ored", "logical or", "every monday", "every day from"],
           ["%u"], ["\\%", "escape", "backslash", "newline"], ["*-*-01..07"], ["persistent"],
           ["user=reports", "reports user", "as reports", "user reports"],
           ["monthly-report.timer", "monthly-report.service"], ["enable --now"], ["list-timers"],
           ["systemd-analyze"]],
 "forbidden": META + ["summary", "30 2 1-7 * 1 /opt/reports", "restricting both fields gives you exactly"]})

# Hand-written: a technical Q&A in Spanish (a container cannot reach PostgreSQL on its host).
chats_heldout3.append({"name": "chat3-spanish-docker-postgres", "origin": O, "messages": [
    user("Tengo una API en Node.js dentro de un contenedor (docker compose) y PostgreSQL 16 instalado directamente en el host, "
         "un Ubuntu 24.04. La API no conecta: «Error: connect ECONNREFUSED 127.0.0.1:5432». Desde el host, "
         "psql -h localhost -U app tienda funciona sin problema. ¿Qué está pasando?"),
    said("El problema es localhost. Dentro de un contenedor, localhost (127.0.0.1) es el propio contenedor, no el host: la API "
         "busca PostgreSQL en el puerto 5432 del contenedor, donde no escucha nadie, y por eso recibe ECONNREFUSED. Desde el host "
         "funciona porque allí localhost sí es la máquina donde corre PostgreSQL.\n\n"
         "Hay que cambiar tres cosas:\n\n"
         "1. Un nombre para llegar al host desde el contenedor. En Docker Desktop (Mac y Windows) existe host.docker.internal; en "
         "Linux tienes que declararlo tú en el docker-compose.yml:\n\n"
         "services:\n"
         "  api:\n"
         "    extra_hosts:\n"
         "      - \"host.docker.internal:host-gateway\"\n"
         "    environment:\n"
         "      DATABASE_URL: postgres://app:${DB_PASSWORD}@host.docker.internal:5432/tienda\n\n"
         "host-gateway se traduce a la IP del host en el bridge por defecto de Docker (docker0), normalmente 172.17.0.1.\n\n"
         "2. Que PostgreSQL escuche en esa dirección; por defecto solo escucha en localhost. En "
         "/etc/postgresql/16/main/postgresql.conf:\n\n"
         "listen_addresses = 'localhost,172.17.0.1'\n\n"
         "3. Que pg_hba.conf acepte la conexión. En /etc/postgresql/16/main/pg_hba.conf:\n\n"
         "host    tienda    app    172.17.0.0/16    scram-sha-256\n\n"
         "Luego reinicia con sudo systemctl restart postgresql (listen_addresses solo se aplica al reiniciar, no basta con un reload)."),
    user("Hecho todo, pero ahora no da ECONNREFUSED sino un timeout al cabo de unos segundos. Otra cosa que he visto: docker "
         "network inspect dice que la red del compose es 172.18.0.0/16, con gateway 172.18.0.1, no 172.17."),
    said("Son dos problemas distintos, y el timeout no lo causa PostgreSQL.\n\n"
         "- El timeout: si PostgreSQL rechazara la conexión por pg_hba.conf, verías enseguida un error del tipo «no pg_hba.conf "
         "entry for host \"172.18.0.2\"». Un timeout significa que los paquetes se pierden antes de llegar, y en Ubuntu el "
         "sospechoso habitual es el cortafuegos: ufw deniega por defecto el tráfico entrante, también el que viene de las redes de "
         "Docker. Ábrelo solo para esa red y ese puerto:\n\n"
         "sudo ufw allow from 172.18.0.0/16 to any port 5432 proto tcp\n\n"
         "- La red: docker compose crea una red propia para el proyecto (por ejemplo tienda_default) con otra subred, así que tu "
         "contenedor se conecta desde una dirección 172.18.x.x. host-gateway sigue apuntando a 172.17.0.1, y eso funciona, porque "
         "esa IP es del host y se alcanza desde cualquier red de Docker; pero la regla de pg_hba.conf con 172.17.0.0/16 no coincide "
         "con el origen. Cámbiala por:\n\n"
         "host    tienda    app    172.18.0.0/16    scram-sha-256\n\n"
         "y haz sudo systemctl reload postgresql (para pg_hba.conf sí basta con un reload).\n\n"
         "Como Docker podría asignar otra subred si se recrea la red, fíjala en el docker-compose.yml:\n\n"
         "networks:\n"
         "  default:\n"
         "    ipam:\n"
         "      config:\n"
         "        - subnet: 172.18.0.0/16"),
    user("Funciona. Última duda: ¿es peligroso que PostgreSQL escuche en 172.17.0.1? No quiero exponer la base de datos a internet."),
    said("No lo es: 172.17.0.1 es una dirección privada de la interfaz docker0, que solo existe dentro de la máquina, y desde "
         "internet no se puede llegar a ella. Lo que no debes hacer es poner listen_addresses = '*', porque entonces PostgreSQL "
         "escucharía también en la IP pública y solo te protegerían ufw y pg_hba.conf. Con tu configuración hay tres barreras: "
         "PostgreSQL solo escucha en localhost y 172.17.0.1, ufw solo abre el 5432 a 172.18.0.0/16, y pg_hba.conf solo admite al "
         "usuario app en la base tienda con contraseña (scram-sha-256).\n\n"
         "Un detalle para cuando reinicies la máquina: si PostgreSQL arranca antes que Docker, la interfaz docker0 aún no existe y "
         "PostgreSQL solo escuchará en localhost (lo verás como WARNING en su log). Para evitarlo, abre "
         "sudo systemctl edit postgresql@16-main y añade:\n\n"
         "[Unit]\n"
         "After=docker.service"),
 ], "select": None,
 "facts": [["propio contenedor", "container itself", "dentro del contenedor", "dentro de un contenedor", "inside the container"],
           ["econnrefused"], ["host.docker.internal"], ["host-gateway"], ["extra_hosts"], ["listen_addresses"],
           ["172.17.0.1"], ["pg_hba"], ["172.18.0.0/16"], ["ufw", "cortafuegos", "firewall"],
           ["ipam", "subnet", "fija la subred", "fijar la subred", "subred fija"],
           ["after=docker.service", "docker.service", "antes que docker", "before docker"]],
 "forbidden": ["el usuario", "the user asked", "gran pregunta", "great question", "resumen", "summary",
               "el timeout lo causa pg_hba"]})

# Hand-written: long answers full of filler around a handful of facts.
chats_heldout3.append({"name": "chat3-verbose-tabs-spaces", "origin": O, "messages": [
    user("We're starting a new Python project, three developers, and everyone uses a different editor (VS Code, PyCharm, and one "
         "of us is on Vim). Tabs or spaces? And how do we stop someone's editor from silently mixing them?"),
    said("Ah, tabs versus spaces, one of the oldest and most passionately debated topics in all of software development! It's the "
         "kind of question that has launched a thousand forum threads, and if you ask ten developers you'll probably get at least "
         "eleven opinions. It even made it into popular culture: there's a famous scene in the TV series Silicon Valley where a "
         "relationship nearly falls apart over exactly this. So you're in very good company for asking, and it's genuinely worth "
         "getting right at the very start of a project rather than halfway through, when changing it means touching every single "
         "file.\n\n"
         "Let's take a step back and think about why this matters at all. In most languages, indentation is purely cosmetic: the "
         "compiler couldn't care less whether you indent with tabs, with spaces, or not at all. Python is different, because "
         "indentation is part of the syntax itself. The amount of leading whitespace decides which block a line belongs to, so "
         "whitespace isn't just about looks, it's about meaning. That's part of what makes Python so pleasant to read, and it's "
         "also why a stray tab can cause real headaches.\n\n"
         "Historically, both sides have reasonable arguments. Fans of tabs point out that a tab is a single character that each "
         "developer can display at whatever width they like, which is great for personal preference and for accessibility. Fans "
         "of spaces point out that spaces look the same everywhere, in every editor, in every terminal, in every code review tool "
         "and in every diff on every website, so what you see is exactly what everyone else sees. Both camps have their merits, "
         "and in the abstract there's no objectively wrong choice.\n\n"
         "For Python specifically, however, the community settled this a long time ago. PEP 8, Python's official style guide, "
         "says to use 4 spaces per indentation level and that spaces are the preferred indentation method. Almost all open-source "
         "Python code follows it, the standard library follows it, and the tools you'll use expect it. Python 3 also refuses to "
         "guess when tabs and spaces are mixed inconsistently: it raises a TabError (\"inconsistent use of tabs and spaces in "
         "indentation\") rather than trying to work out what you meant. So my recommendation is 4 spaces, no tabs.\n\n"
         "Now, as for making sure everyone's editor plays along, which is really the more important half of your question. The "
         "good news is that modern tooling makes this quite painless. The first step is to add an .editorconfig file at the root "
         "of the repository. EditorConfig is a simple, widely supported format: PyCharm reads it out of the box, VS Code does with "
         "the EditorConfig extension, and Vim with the editorconfig-vim plugin. Something like:\n\n"
         "root = true\n\n"
         "[*.py]\n"
         "indent_style = space\n"
         "indent_size = 4\n\n"
         "The second step is a formatter, so that nobody has to think about it at all. Black is the most popular choice, and "
         "Ruff's formatter (ruff format) is a fast, Black-compatible alternative; both always indent with 4 spaces. Run it through "
         "pre-commit, with a .pre-commit-config.yaml in the repository, so that files are formatted before every commit, and run "
         "the same check in CI so that nothing slips through from someone who hasn't installed the hook.\n\n"
         "At the end of the day, the specific choice matters far less than consistency. The worst outcome isn't picking the wrong "
         "one, it's a codebase where half the files use one style and half use the other. Pick the standard, automate it, and "
         "then never think about it again. I hope this helps, and good luck with your new project!"),
    user("Makes sense. We also have a Makefile in the repo for the usual build and test shortcuts. Does the spaces rule apply there too?"),
    said("Great question, and a really important one, because this is exactly the sort of thing that catches people out! No: "
         "Makefiles are the big exception to everything I said above. In make, every recipe line (the commands under a target) "
         "must start with a real tab character. If it starts with spaces instead, make stops with the famous error "
         "\"Makefile:3: *** missing separator.  Stop.\" It's one of the oldest quirks in Unix tooling; the story goes that the "
         "author of make regretted the choice not long after, but by then the tool already had a dozen users, so it stayed.\n\n"
         "So in your .editorconfig, add a section that overrides the default for it:\n\n"
         "[Makefile]\n"
         "indent_style = tab\n\n"
         "With that in place, every editor will insert tabs in the Makefile and 4 spaces in your Python files, and nobody needs "
         "to remember anything. As always, the key is letting the tools do the remembering for you!"),
 ], "select": None,
 "facts": [["4 spaces", "four spaces"], ["pep 8", "pep8", "pep-8"], ["taberror", "inconsistent use of tabs"],
           [".editorconfig", "editorconfig"], ["indent_style"], ["black", "ruff"], ["pre-commit"], ["makefile"],
           ["missing separator", "tab character", "real tab", "start with a tab", "indent_style = tab", "use tabs", "needs tabs", "need tabs", "requires tabs"]],
 "forbidden": META + ["summary", "silicon valley", "eleven opinions", "at the end of the day", "a thousand forum threads",
                      "use tabs for python", "makefiles can use spaces"]})

# Hand-written: the user corrects the assistant (Python's sort is stable) and the assistant accepts.
chats_heldout3.append({"name": "chat3-python-sort-stability", "origin": O, "messages": [
    user("I have a leaderboard as a list of dicts, each with 'name', 'score' (an int) and 'time_s' (a float, seconds to finish). "
         "I need it sorted by score, highest first, and for equal scores by time, fastest first. What's the cleanest way in Python 3.12?"),
    said("One sort with a tuple key. Negate the field you want in descending order, so that everything can sort ascending:\n\n"
         "rows.sort(key=lambda r: (-r['score'], r['time_s']))\n\n"
         "Python compares the tuples element by element: first by the negated score, and only for equal scores by time. Avoid "
         "doing it with two separate sorts: Python's sort isn't guaranteed to be stable, so a second sort can scramble the order "
         "the first one produced among equal keys."),
    user("Are you sure about that last part? As far as I know list.sort() and sorted() are guaranteed to be stable, the docs say "
         "so explicitly, and the Sorting HOWTO even shows sorting in several passes. It matters because we also have a view sorted "
         "by score descending and then by name descending, and I can't negate a string."),
    said("You're right, and I was wrong about that. list.sort() and sorted() are guaranteed to be stable: items that compare equal "
         "keep their relative order. That has been guaranteed since Python 2.2, and the algorithm behind it is Timsort.\n\n"
         "Stability is exactly what makes several passes work: sort by the least important key first, then by the more important "
         "one, and the second sort keeps the first order among ties. For your second view:\n\n"
         "from operator import itemgetter\n\n"
         "rows.sort(key=itemgetter('name'), reverse=True)   # secondary: name, descending\n"
         "rows.sort(key=itemgetter('score'), reverse=True)  # primary: score, descending\n\n"
         "reverse=True doesn't break stability either: equal items keep their original order, they are not reversed. That covers "
         "the case negation can't express, a string key in descending order. For the first view the tuple key is still fine, "
         "because both fields are numbers; with passes it would be rows.sort(key=itemgetter('time_s')) followed by "
         "rows.sort(key=itemgetter('score'), reverse=True)."),
    user("Great. The leaderboard has about 2 million rows and is rebuilt every minute. Are two passes much slower than one?"),
    said("Both are O(n log n), so the difference is a constant factor, not a different league. Two passes do two sorts, but the "
         "single pass builds 2 million tuples and compares them element by element, which isn't free either; itemgetter is also a "
         "little faster than an equivalent lambda because it runs in C. Which one wins depends on your data, so measure both with "
         "timeit on a realistic copy instead of guessing.\n\n"
         "If it turns out to be too slow for a rebuild every minute, the bigger win is usually not to re-sort at all: keep the list "
         "sorted and move only the rows that changed, with bisect.insort, which accepts a key argument since Python 3.10."),
 ], "select": None,
 "facts": [["stable"], ["2.2"], ["timsort"],
           ["least important", "secondary key first", "least significant", "secondary first", "name first", "first by name",
            "then by score", "then score", "then sort by score"],
           ["itemgetter"], ["reverse=true"], ["-r['score']", "negat", "-score", "tuple key", "tuple"], ["time_s"],
           ["o(n log n)", "n log n"], ["timeit"], ["bisect", "insort"],
           ["2 million", "2,000,000", "two million", "2m rows", "2000000"]],
 "forbidden": META + ["summary", "not guaranteed to be stable", "isn't guaranteed to be stable", "sort is not stable", "sort isn't stable"]})
