print("seatkit")
