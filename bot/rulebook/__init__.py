"""The rules documents Keywood reads at run time, shipped inside the package: each game's rules summary (`/rules`)
and the rulings. The files are links to the documents in docs/, which stay where readers of the repository find
them; a wheel holds their text. Read them with `importlib.resources.files(__name__)`."""
