import SeatMap
